/**
 * Bench section 6: how many creates a second one team ledger sustains.
 * - Straight to the object: the ledger's whole part of a create (reserve, bind, settle) from a
 *   bench-only Worker in the proxy's workerd (scripts/bench/ledger-direct-worker.ts), 1, 8 and 32
 *   creates in flight: the ledger's own ceiling.
 * - Through the proxy against the sandbox, tracking idle: concurrent creates from several members
 *   (each member's object runs its creates, all reserve in the one ledger): what the whole path
 *   sustains on this machine, where the ledger is one step of many.
 * Printed side by side; a measurement, not a test.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { TEST_PROXY_SECRETS, TEST_VARS } from '../../test/support/sandbox';
import { AdminClient } from '../lib/admin-client';
import { serve } from './measure';

const DIRECT_CREATES = Math.ceil(Number(process.env.BENCH_LEDGER_CREATES ?? 3000) / 200) * 200;
const PROXY_CREATES = Number(process.env.BENCH_LEDGER_PROXY_CREATES ?? 600);
const PROXY_MEMBERS = 8;
/** Creates per request to the bench Worker: 3 ledger calls each, under workerd's subrequest bound. */
const BATCH = 200;
const MODEL = 'doubao-seedance-2-0-260128';

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

export async function ledgerSection(): Promise<void> {
  const sandbox = await serve('worker/sandbox/wrangler.jsonc', { ...TEST_VARS });
  // Tracking idle (once an hour): the creates' tasks are not polled while measuring.
  const proxy = await serve(
    'worker/proxy/wrangler.jsonc',
    { ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: sandbox.url, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: '3600', ...TEST_PROXY_SECRETS },
    [{ config: 'scripts/bench/ledger-direct.jsonc', routes: ['*/__bench/ledger/*'] }],
  );
  try {
    const rows: Record<string, { creates: number; 'in flight': number; 'creates/s': number }> = {};
    /** `n` creates in requests of BATCH (workerd bounds the subrequests of one request), `concurrency` in flight within each. */
    const direct = async (n: number, concurrency: number) => {
      const t = performance.now();
      for (let done = 0; done < n; done += BATCH) {
        const r = await fetch(`${proxy.url}/__bench/ledger/creates?n=${BATCH}&concurrency=${concurrency}&members=8`, { method: 'POST' });
        const body = (await r.json()) as { created?: number; error?: string };
        if (r.status !== 200 || body.created !== BATCH) throw new Error(`ledger bench: HTTP ${r.status} ${JSON.stringify(body)}`);
      }
      return performance.now() - t;
    };
    await direct(200, 8); // warm-up
    for (const concurrency of [1, 8, 32]) {
      rows[`ledger direct: reserve + bind + settle, ${concurrency} in flight`] = { creates: DIRECT_CREATES, 'in flight': concurrency, 'creates/s': perSecond(DIRECT_CREATES, await direct(DIRECT_CREATES, concurrency)) };
    }

    const client = new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN);
    const admin = (method: string, path: string, body: unknown) =>
      fetch(new URL(path, proxy.url), { method, headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.text());
    await admin('PUT', '/admin/prices', { currency: 'CNY', models: { [MODEL]: { '*': 1 } } });
    const members = await Promise.all(Array.from({ length: PROXY_MEMBERS }, (_, i) => client.add(`bench-ledger-${i}`)));
    // A budget for each (checked and reserved against), far above what the run spends.
    await Promise.all(members.map((m) => admin('PUT', `/admin/members/${m.id}/budget`, { limit: 1e9, period: 'month' })));
    const create = (token: string) =>
      fetch(`${proxy.url}/v1/video/generations`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ model: MODEL, prompt: 'bench', duration: 5 }) });
    const throughProxy = async (n: number, perMember: number) => {
      let next = 0;
      const lane = async (token: string) => {
        while (next < n) {
          next++;
          const r = await create(token);
          await r.arrayBuffer();
          if (r.status !== 200) throw new Error(`create through the proxy: HTTP ${r.status}`);
        }
      };
      const t = performance.now();
      await Promise.all(members.flatMap((m) => Array.from({ length: perMember }, () => lane(m.token))));
      return performance.now() - t;
    };
    await throughProxy(50, 1); // warm-up
    for (const perMember of [1, 4]) {
      const inFlight = PROXY_MEMBERS * perMember;
      rows[`through the proxy: ${PROXY_MEMBERS} members x ${perMember}`] = { creates: PROXY_CREATES, 'in flight': inFlight, 'creates/s': perSecond(PROXY_CREATES, await throughProxy(PROXY_CREATES, perMember)) };
    }
    console.log(`\nCreates per second one team ledger sustains (workerd as deployed, ${cpus().length} cores: ${cpus()[0]?.model ?? 'unknown CPU'}):`);
    console.table(rows);
    console.log('The direct rows are the ledger alone (its whole part of a create); the proxy rows are the whole create path, the sandbox included, on the same machine.');
  } finally {
    await Promise.all([proxy.stop(), sandbox.stop()]);
  }
}
