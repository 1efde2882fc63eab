import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ledgerObject } from './handles';
import { proxyEnv } from '../testing/proxy-test-client';
import { member } from '../testing/proxy-test-steps';
import { create, finishTasks, priceModel, resetPrices, setBudget, webhookAlerts } from '../testing/gateway-test-steps';

/**
 * ALERT_WEBHOOK_URL under the webhooks' outbound rule (docs/webhooks.md): a refused one is never
 * posted to, and the ledger says so once in the log. Here the tests' own alert receiver (a loopback
 * http:// URL) is refused by turning ALLOW_HTTP_MEDIA off in the ledger's settings.
 */

/** Runs `body` with the ledger's settings changed, and puts them back. */
async function withLedgerEnv(change: Record<string, string>, body: () => Promise<void>): Promise<void> {
  let saved: unknown;
  await runInDurableObject(ledgerObject(proxyEnv), (instance) => {
    saved = (instance as any).env;
    (instance as any).env = { ...(saved as object), ...change };
  });
  try {
    await body();
  } finally {
    await runInDurableObject(ledgerObject(proxyEnv), (instance) => {
      (instance as any).env = saved;
    });
  }
}

afterEach(async () => {
  vi.restoreAllMocks();
  await resetPrices();
});

const refusals = (spy: { mock: { calls: unknown[][] } }, why: RegExp) =>
  spy.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('ALERT_WEBHOOK_URL is not posted to') && why.test(line));

/** Two members each pass 80 % of their budget, with the ledger's settings changed; answers their ids. */
async function twoAlerts(change: Record<string, string>, logged: { mock: { calls: unknown[][] } }, why: RegExp): Promise<string[]> {
  await priceModel(0.6);
  const people = [await member('alert-a'), await member('alert-b')];
  await withLedgerEnv(change, async () => {
    for (const m of people) {
      await setBudget(m, { limit: 10 });
      expect((await create(m, 15)).status).toBe(200); // 9 of 10: the 80 % alert
      await finishTasks(m);
      // The refusal is decided in the step that raised the alert: once it is logged, nothing was queued.
      await vi.waitFor(() => expect(refusals(logged, why).length).toBeGreaterThan(0));
    }
  });
  return people.map((m) => m.id);
}

describe('a refused ALERT_WEBHOOK_URL', () => {
  it('is never posted to, and is logged once (never with its URL)', async () => {
    const logged = vi.spyOn(console, 'error');
    // The tests' own receiver (loopback http://) with ALLOW_HTTP_MEDIA off: the rule refuses it.
    const ids = await twoAlerts({ ALLOW_HTTP_MEDIA: 'off' }, logged, /must be an https:\/\/ URL/);
    expect(refusals(logged, /./)).toHaveLength(1);
    for (const args of logged.mock.calls) expect(String(args[0])).not.toContain(proxyEnv.ALERT_WEBHOOK_URL!);
    for (const id of ids) expect(await webhookAlerts(id)).toEqual([]);
  });

  it.each([
    ['https://10.0.0.1/alerts', /must not be a private address \(10\.0\.0\.1\)/],
    ['https://169.254.169.254/alerts', /must not be a link-local address/],
    ['https://hooks.internal/alerts', /must not be a host under \.internal/],
  ])('%s is refused by host, said once', async (url, why) => {
    const logged = vi.spyOn(console, 'error');
    await twoAlerts({ ALERT_WEBHOOK_URL: url }, logged, why);
    expect(refusals(logged, /./)).toHaveLength(1);
  });
});
