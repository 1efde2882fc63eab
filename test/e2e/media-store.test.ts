/**
 * The media store across processes, as `npm start` runs it: a member uploads a file to the proxy
 * (wrangler dev, local R2), creates an asset from the signed address, and the sandbox downloads it
 * from the proxy with no header, as the service downloads any URL: the asset becomes Active.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdminClient } from '../../scripts/lib/admin-client';
import { ROOT } from '../../scripts/lib/wrangler-dev';
import { waitFor } from '../support/poll-until';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../support/sandbox';

let sandbox: Server | undefined;
let proxy: Server | undefined;
let token: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startProxy(sandbox.url);
  ({ token } = await new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add('uploader'));
});

afterAll(async () => {
  await proxy?.stop().catch(() => {});
  await sandbox?.stop().catch(() => {});
});

const api = async (action: string, body: unknown) =>
  (await (await fetch(`${proxy!.url}/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as any;

it('an upload becomes an Active asset: the sandbox downloads it from its signed address', async () => {
  const png = await readFile(join(ROOT, 'test/fixtures/media/sample.png'));
  const uploaded = await fetch(`${proxy!.url}/proxy/uploads?name=sample.png`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' }, body: png });
  expect(uploaded.status).toBe(201);
  const { url } = (await uploaded.json()) as { url: string };
  expect(url.startsWith(`${proxy!.url}/media/`)).toBe(true);
  const group = (await api('CreateAssetGroup', { Name: 'Uploads' })).Result.Id;
  const created = await api('CreateAsset', { GroupId: group, AssetType: 'Image', Name: 'upload', URL: url });
  expect(created.ResponseMetadata.Error, JSON.stringify(created)).toBeUndefined();
  const asset = await waitFor(() => api('GetAsset', { Id: created.Result.Id }), (r) => r.Result?.Status === 'Active' || r.Result?.Status === 'Failed', 30_000, 300);
  expect(asset.Result.Status, JSON.stringify(asset.Result)).toBe('Active');
});
