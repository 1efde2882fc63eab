import { describe, expect, it } from 'vitest';
import { addMember, api, call, mediaUrl, waitFor } from './testing/proxy-test-client';

describe('a member through the proxy', () => {
  it('creates a group and an asset, waits for Active and generates a video from it', async () => {
    const alice = await addMember('alice');
    const group = await api(alice, 'CreateAssetGroup', { Name: 'Refs' });
    expect(group.error).toBeUndefined();
    const asset = await api(alice, 'CreateAsset', { GroupId: group.result.Id, AssetType: 'Image', Name: 'png', URL: `${mediaUrl}/media/sample.png` });
    expect(asset.error).toBeUndefined();
    await waitFor(() => api(alice, 'GetAsset', { Id: asset.result.Id }), (r) => r.result?.Status === 'Active');
    const created = await call(alice, 'POST', '/v1/video/generations', {
      model: 'doubao-seedance-2-0-260128',
      content: [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: `asset://${asset.result.Id}` }, role: 'reference_image' }],
    });
    expect(created.status).toBe(200);
    const done = await waitFor(() => call(alice, 'GET', `/v1/video/generations/${created.body.id}`), (r) => r.body.status === 'completed');
    expect(done.body.metadata.url).toMatch(/\.mp4$/);
  });
});
