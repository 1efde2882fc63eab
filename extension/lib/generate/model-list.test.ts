import { beforeEach, describe, expect, it } from 'vitest';
import { MODELS } from '@@/shared';
import { cachedModels, joinModels, loadModels } from '@/lib/generate/model-list';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { resetState } from '@/lib/testing/test-setup';

let proxy: VideoFakeProxy;
let client: ProxyClient;

beforeEach(async () => {
  await resetState();
  proxy = new VideoFakeProxy();
  client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
});

describe('models for the Generate form', () => {
  it('joins the listed ids with the catalog, in catalog order, leaving out ids the catalog does not know', () => {
    const list = { data: [{ id: 'doubao-seedance-2-0-260128' }, { id: 'chat-model' }, { id: 'doubao-seedance-1-0-pro-250528' }] };
    expect(joinModels(list).map((m) => m.label)).toEqual(['Seedance 1.0 Pro', 'Seedance 2.0']);
  });

  it('uses the proxy catalog and media rule, and keeps the answer for the next opening', async () => {
    proxy.modelIds = ['doubao-seedance-2-0-260128', 'doubao-seed-1-6-chat'];
    proxy.catalog = MODELS.map((m) => ({ ...m, label: `${m.label} (team)` }));
    proxy.allowHttpMedia = true;
    const info = await loadModels(client, false, () => 42);
    expect(info).toEqual({ models: [expect.objectContaining({ id: 'doubao-seedance-2-0-260128', label: 'Seedance 2.0 (team)' })], allowHttp: true, fetchedAt: 42 });
    expect(await cachedModels()).toEqual(info);
    expect(proxy.actions().sort()).toEqual(['capabilities', 'models']);
  });

  it('falls back to the built-in catalog when the proxy has none; fails when the listing fails', async () => {
    proxy.catalog = null;
    expect((await loadModels(client, true)).models).toEqual(MODELS);
    proxy.failNext('models', { kind: 'network' });
    await expect(loadModels(client)).rejects.toMatchObject({ failure: { kind: 'network' } });
  });
});
