/** Bench section: what a shared group costs a grantee (docs/team-library.md). */
import { TEST_PROXY_SECRETS, TEST_VARS, type Server } from '../../test/support/sandbox';
import { AdminClient } from '../lib/admin-client';
import { measure, ms, serve, signed, type Step, verdict } from './measure';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);

/**
 * One asset, read by its owner (answered from the owner's object, as before sharing existed) and by
 * a viewer of its group (the owner's object is not theirs: one call to the team library, one query),
 * interleaved over keep-alive connections; a refused stranger's read beside them shows the check alone.
 */
export async function sharingSection(goalP50: number) {
  console.log(`\nA grantee's GetAsset against the owner's, ${CALLS} calls each, interleaved, keep-alive:`);
  const servers: Server[] = [];
  try {
    const sandbox = await serve('worker/sandbox/wrangler.jsonc', { ...TEST_VARS });
    servers.push(sandbox);
    const proxy = await serve('worker/proxy/wrangler.jsonc', { ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: sandbox.url, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: '3600', ...TEST_PROXY_SECRETS });
    servers.push(proxy);
    const admin = new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN);
    const [owner, viewer, stranger] = [await admin.add('bench-owner'), await admin.add('bench-viewer'), await admin.add('bench-stranger')];
    const as = (token: string) => (action: string, body: unknown) =>
      fetch(`${proxy.url}/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const group = ((await (await as(owner.token)('CreateAssetGroup', { Name: 'bench shared' })).json()) as { Result: { Id: string } }).Result.Id;
    const created = (await (await as(owner.token)('CreateAsset', { GroupId: group, AssetType: 'Image', Name: 'bench', URL: `${sandbox.url}/sandbox/media/portrait.png` })).json()) as { Result?: { Id: string } };
    if (!created.Result) throw new Error(`bench asset not created: ${JSON.stringify(created).slice(0, 200)}`);
    const asset = { Id: created.Result.Id };
    const shared = await fetch(`${proxy.url}/proxy/groups/${group}/sharing`, { method: 'PUT', headers: { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ members: { [viewer.id]: 'viewer' } }) });
    if (!shared.ok) throw new Error(`sharing failed: HTTP ${shared.status} ${(await shared.text()).slice(0, 200)}`);
    const steps = {
      owner: { name: "owner's GetAsset (own id: the owner's object only)", run: () => as(owner.token)('GetAsset', asset), expect: 200 },
      grantee: { name: "viewer's GetAsset (one team library call)", run: () => as(viewer.token)('GetAsset', asset), expect: 200 },
      stranger: { name: "stranger's GetAsset (refused after the same call, 403)", run: () => as(stranger.token)('GetAsset', asset), expect: 403 },
    } satisfies Record<string, Step>;
    const { results: r, opened } = await measure(steps, CALLS);
    console.table(Object.fromEntries(Object.entries(steps).map(([k, s]) => [s.name, { p50: ms(r[k as keyof typeof r].p50), p99: ms(r[k as keyof typeof r].p99), mean: ms(r[k as keyof typeof r].mean) }])));
    console.log(`New connections while measuring: ${opened}.`);
    const diff = r.grantee.p50 - r.owner.p50;
    console.log(`A grantee's check adds at p50 ${signed(diff)} (p99 ${signed(r.grantee.p99 - r.owner.p99)}). Goal: under ${goalP50} ms at p50 ${verdict(diff < goalP50)}.`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
