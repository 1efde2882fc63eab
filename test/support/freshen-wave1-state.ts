/**
 * Brings a copy of test/fixtures/wave1-state up to today. The fixture was made once, on some past
 * day; its idempotency records carry that day's time, and a proxy drops records older than 24
 * hours. So that the upgrade test checks that records survive the upgrade (and not how old the
 * fixture is), each member object's records are moved forward as if wave 1 had written them a
 * minute ago. Nothing else in the state is touched.
 *
 * It opens the copied state with Miniflare under the proxy's own name and class, so the objects'
 * SQLite files are the ones the proxy then opens; the class here only runs the one UPDATE.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';

const SCRIPT = /* js */ `
export class MemberState {
  constructor(state) { this.state = state; }
  fetch(request) {
    const now = Number(new URL(request.url).searchParams.get('now'));
    const sql = this.state.storage.sql;
    const newest = sql.exec('SELECT MAX(created_at) AS t FROM idempotency').one().t;
    if (newest !== null) sql.exec('UPDATE idempotency SET created_at = created_at + ?', now - 60000 - newest);
    return Response.json({ moved: newest === null ? 0 : now - 60000 - newest });
  }
}
export default {
  async fetch(request, env) {
    const { id, now } = Object.fromEntries(new URL(request.url).searchParams);
    return env.MEMBERS.get(env.MEMBERS.idFromString(id)).fetch('http://object/?now=' + now);
  },
};
`;

/** Moves the idempotency records of every member object under `proxyState` (a wrangler persist folder) to a minute ago. */
export async function freshenWave1State(proxyState: string, now = Date.now()): Promise<void> {
  const objects = join(proxyState, 'v3', 'do', 'arkbridge-proxy-MemberState');
  const ids = (await readdir(objects)).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f)).map((f) => f.slice(0, 64));
  const mf = new Miniflare({
    name: 'arkbridge-proxy',
    modules: true,
    script: SCRIPT,
    compatibilityDate: '2025-01-01',
    durableObjects: { MEMBERS: { className: 'MemberState', useSQLite: true } },
    durableObjectsPersist: join(proxyState, 'v3', 'do'),
  });
  try {
    for (const id of ids) {
      const r = await mf.dispatchFetch(`http://local/?id=${id}&now=${now}`);
      if (!r.ok) throw new Error(`freshening member object ${id}: HTTP ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    }
  } finally {
    await mf.dispose();
  }
}
