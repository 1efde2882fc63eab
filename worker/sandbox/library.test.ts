import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { api, waitFor } from './testing/client';

const media = inject('mediaBaseUrl');

describe('typical library flow', () => {
  it('creates a group, adds an image and sees it turn Active', async () => {
    const group = await api('CreateAssetGroup', { Name: 'Cats' });
    expect(group.status).toBe(200);
    const asset = await api('CreateAsset', { GroupId: group.result.Id, AssetType: 'Image', Name: 'cat', URL: `${media}/media/sample.png` });
    expect(asset.error).toBeUndefined();
    const got = await waitFor(() => api('GetAsset', { Id: asset.result.Id }), (r) => r.result.Status !== 'Processing');
    expect(got.result.Status).toBe('Active');
  });
});
