/**
 * Makes test/fixtures/wave1-state: the persisted local state of a wave-1 deployment (the proxy
 * and the sandbox of commit WAVE1_COMMIT, before budgets and tracking existed) with one member,
 * a group, an Active asset created under an Idempotency-Key, and a video task. The upgrade test
 * (test/e2e/upgrade.test.ts) starts today's code on a copy of it. Run once, from the project root:
 *
 *   node --import tsx test/support/make-wave1-state.ts
 *
 * It needs the git history (git archive of that commit) and the installed node_modules.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, wranglerDev } from '../../scripts/lib/wrangler-dev';
import { startMediaServer } from './media-server';
import { TEST_PROXY_SECRETS, TEST_VARS } from './sandbox';

/** The last commit of wave 1 (hardening included), before the gateway. */
export const WAVE1_COMMIT = '949a551';
const OUT = join(ROOT, 'test/fixtures/wave1-state');

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'arkbridge-wave1-'));
  const src = join(work, 'src');
  await mkdir(src);
  execFileSync('sh', ['-c', `git archive ${WAVE1_COMMIT} worker shared | tar -x -C ${JSON.stringify(src)}`], { cwd: ROOT, stdio: 'inherit' });
  await symlink(join(ROOT, 'node_modules'), join(src, 'node_modules'));
  const media = await startMediaServer();
  const [sandboxPort, proxyPort] = [await freePort(), await freePort()];
  const sandbox = wranglerDev({ config: join(src, 'worker/sandbox/wrangler.jsonc'), port: sandboxPort, persistTo: join(work, 'sandbox'), vars: { ...TEST_VARS }, label: 'wave1-sandbox', echo: false });
  await sandbox.ready;
  const proxy = wranglerDev({
    config: join(src, 'worker/proxy/wrangler.jsonc'),
    port: proxyPort,
    persistTo: join(work, 'proxy'),
    vars: { ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: sandbox.url, ALLOW_HTTP_MEDIA: 'on', ...TEST_PROXY_SECRETS },
    label: 'wave1-proxy',
    echo: false,
  });
  await proxy.ready;
  try {
    const json = async (r: Response) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
      return r.json() as Promise<any>;
    };
    const added = await json(await fetch(`${proxy.url}/admin/members`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Wave One' }) }));
    const auth = { Authorization: `Bearer ${added.token}`, 'Content-Type': 'application/json' };
    const api = (action: string, body: unknown, key?: string) =>
      fetch(`${proxy.url}/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', headers: { ...auth, ...(key ? { 'Idempotency-Key': key } : {}) }, body: JSON.stringify(body) }).then(json);
    const group = (await api('CreateAssetGroup', { Name: 'Wave one refs' })).Result.Id as string;
    const assetBody = { GroupId: group, AssetType: 'Image', Name: 'kite', URL: `${media.url}/media/sample.png` };
    const asset = (await api('CreateAsset', assetBody, 'wave1-asset')).Result.Id as string;
    for (let i = 0; ; i++) {
      const status = (await api('GetAsset', { Id: asset })).Result.Status;
      if (status === 'Active') break;
      if (status === 'Failed' || i > 100) throw new Error(`asset ${status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const task = await json(await fetch(`${proxy.url}/v1/video/generations`, { method: 'POST', headers: auth, body: JSON.stringify({ model: 'doubao-seedance-2-0-260128', prompt: 'a kite', duration: 5 }) }));
    await proxy.stop();
    await sandbox.stop();
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
    await cp(join(work, 'proxy'), join(OUT, 'proxy'), { recursive: true });
    await cp(join(work, 'sandbox'), join(OUT, 'sandbox'), { recursive: true });
    const facts = { commit: WAVE1_COMMIT, member: { id: added.id, name: added.name, token: added.token }, group, asset, assetBody, assetKey: 'wave1-asset', task: task.id };
    await writeFile(join(OUT, 'facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
    console.log(`Wrote ${OUT}`);
  } finally {
    await proxy.stop();
    await sandbox.stop();
    await media.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
