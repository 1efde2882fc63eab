import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import app from '../../index';
import { ORIGIN, proxyEnv, recordSeen, sandbox, type Member } from '../../testing/proxy-test-client';
import { admin, finishTasks, priceModel, resetPrices, usage } from '../../testing/gateway-test-steps';
import { member, MODEL } from '../../testing/proxy-test-steps';
import { freezeSandbox } from '../../testing/queue-test-steps';

/**
 * The console's Queue page (docs/console.md, docs/queue.md): every member's items, the settings in
 * force, Cancel. The sandbox's clock is stopped, so the runner's task holds the one slot until the
 * test ends it: on the machine's clock it would end within seconds and the waiter's create would
 * launch before a stalled run reads or cancels it.
 */

beforeEach(() => freezeSandbox(true));
afterEach(() => freezeSandbox(false));

let ip = 20;
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN };

/** The Worker with UPSTREAM_MAX_RUNNING at `cap`, as the queue's own tests run it. */
async function at(cap: string, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(new URL(path, ORIGIN), init), { ...proxyEnv, UPSTREAM_MAX_RUNNING: cap }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  recordSeen(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
  return { status: response.status, text };
}

const createAt = async (cap: string, m: Member, key: string) => {
  const r = await at(cap, '/v1/video/generations', {
    method: 'POST',
    headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json', Prefer: 'respond-async', 'Idempotency-Key': key },
    body: JSON.stringify({ model: MODEL, prompt: 'queued kite', duration: 5 }),
  });
  return { status: r.status, body: JSON.parse(r.text) };
};

/** A signed-in session at `cap`: its cookie, the CSRF token, and the page at `/console/queue`. */
async function queueSession(cap: string) {
  const ctx = createExecutionContext();
  const signin = await app.fetch(new Request(`${ORIGIN}/console/signin`, { method: 'POST', headers: { ...FORM, 'CF-Connecting-IP': `198.18.1.${++ip % 250}` }, body: new URLSearchParams({ token: proxyEnv.ADMIN_TOKEN }).toString(), redirect: 'manual' }), proxyEnv, ctx);
  await waitOnExecutionContext(ctx);
  expect(signin.status).toBe(303);
  const cookie = `arkbridge_console=${/arkbridge_console=([^;]+)/.exec(signin.headers.get('set-cookie') ?? '')![1]!}`;
  const page = (path = '/console/queue') => at(cap, path, { headers: { Cookie: cookie } });
  const first = await page();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(first.text)![1]!;
  const cancel = (id: string, init: { csrf?: string; origin?: string } = {}) =>
    at(cap, `/console/queue/${id}/cancel`, { method: 'POST', headers: { ...FORM, Origin: init.origin ?? ORIGIN, Cookie: cookie }, body: new URLSearchParams({ _csrf: init.csrf ?? csrf }).toString() });
  return { page, cancel };
}

describe('the Queue page', () => {
  it('lists every member\'s queued creates with place, member, model, status and age, the cap and the tasks running; Cancel releases the reservation', async () => {
    await priceModel(1);
    try {
      const [runner, waiter] = [await member('Runner'), await member('Waiter')];
      expect((await createAt('1', runner, 'console-q-run')).status).toBe(200);
      const queued = await createAt('1', waiter, 'console-q-wait');
      expect(queued.status).toBe(202);
      const id = queued.body.id as string;
      const { running } = (await admin('GET', '/admin/queue')).body as { running: number };
      expect(running).toBeGreaterThanOrEqual(1);

      const s = await queueSession('1');
      const { status, text } = await s.page();
      expect(status).toBe(200);
      expect(text).toContain('href="/console/queue" aria-current="page"');
      const row = new RegExp(`<tr>\\s*<td class="num">1</td>\\s*<td>Waiter</td>\\s*<td>${MODEL}</td>\\s*<td>queued</td>\\s*<td class="num">\\d+ s</td>`);
      expect(text).toMatch(row);
      expect(text).toMatch(/Cap at the service \(UPSTREAM_MAX_RUNNING\)<\/dt><dd>1<\/dd>/);
      expect(text).toContain(`Running at the service now</dt><dd>${running}</dd>`);
      expect(text).toContain('not backing off');
      expect(text).toContain(`action="/console/queue/${id}/cancel"`);
      expect(text).not.toMatch(/<script|\sstyle=|\son\w+=/i);
      expect((await s.page('/console/queue?lang=zh-CN')).text).toContain('服务端上限（UPSTREAM_MAX_RUNNING）');

      const cancelled = await s.cancel(id);
      expect(cancelled.status).toBe(200);
      expect(cancelled.text).toContain(`Cancelled ${id}: its reservation is released.`);
      expect(cancelled.text).not.toContain(`action="/console/queue/${id}/cancel"`);
      expect((await usage(waiter)).reserved).toBe(0);
      expect((await admin('GET', '/admin/audit')).body.entries[0]).toMatchObject({ action: 'queue.cancel', target: id, detail: { member: waiter.id } });
      // Too late: the page says why, and nothing changes.
      expect((await s.cancel(id)).text).toContain('no longer queued');
      await finishTasks(runner);
    } finally {
      await resetPrices();
    }
  });

  it.each([
    ['without the CSRF token', { csrf: 'wrong', key: 'csrf' }],
    ['from a foreign Origin', { origin: 'https://evil.example', key: 'origin' }],
  ] as [string, { csrf?: string; origin?: string; key: string }][])('refuses a Cancel %s; the item stays queued', async (_what, init) => {
    const [runner, waiter] = [await member('Runner'), await member('Waiter')];
    expect((await createAt('1', runner, `console-q-run-${init.key}`)).status).toBe(200);
    const id = (await createAt('1', waiter, `console-q-wait-${init.key}`)).body.id as string;
    const s = await queueSession('1');
    expect((await s.cancel(id, init)).status).toBe(403);
    const items = (await admin('GET', '/admin/queue')).body.items as { id: string; status: string }[];
    expect(items.find((i) => i.id === id)?.status).toBe('queued');
    expect((await s.cancel(id)).status).toBe(200);
    await finishTasks(runner);
  });

  it('shows until when the team backs off after the service answered busy', async () => {
    const m = await member('Busy');
    await sandbox.fault({ target: 'v1-create', status: 429, retryAfter: 3600, count: 1 });
    const queued = await createAt('0', m, 'console-q-busy');
    expect(queued.status).toBe(202);
    const { backoffUntil } = (await admin('GET', '/admin/queue')).body as { backoffUntil: string };
    expect(Date.parse(backoffUntil)).toBeGreaterThan(Date.now() + 3_000_000);
    const s = await queueSession('0');
    const { text } = await s.page();
    expect(text).toContain(`Backing off until</dt><dd>${backoffUntil.replace('T', ' ').slice(0, 16)} UTC</dd>`);
    expect(text).toMatch(/Cap at the service \(UPSTREAM_MAX_RUNNING\)<\/dt><dd>none<\/dd>/);
    expect((await s.cancel(queued.body.id)).status).toBe(200);
  });
});
