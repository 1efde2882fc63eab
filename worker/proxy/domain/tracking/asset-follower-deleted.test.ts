import { describe, expect, it } from 'vitest';
import { libraryCall } from '../../infra/upstream/fetch';
import { call, proxyEnv, type Member } from '../../testing/proxy-test-client';
import { asset, group, member, memberRows, runAssetChecks } from '../../testing/proxy-test-steps';
import { ASSET_GONE_AFTER_MS } from './asset-follower';

/**
 * A followed asset the service no longer knows (deleted with no word reaching the proxy: a stop right
 * after the service's answer, or a delete made elsewhere) drops out of the member's statuses at the
 * follower's next listing, rather than staying `Processing` for a day.
 */

const statuses = async (m: Member, ids: string[]) => (await call(m, 'POST', '/proxy/assets/statuses', { ids })).body.assets.map((a: { id: string }) => a.id).sort();
const followed = (m: Member) => memberRows<{ id: string }>(m, 'SELECT id FROM followed_assets').then((r) => r.map((x) => x.id));

describe('assets deleted behind the proxy', () => {
  it('the next listing drops an asset the service no longer lists (once past the grace after its create); one still there stays', async () => {
    const m = await member('follower');
    const g = await group(m);
    const x = await asset(m, g, 'deleted elsewhere');
    const y = await asset(m, g, 'kept');
    const gone = await libraryCall(proxyEnv, 'DeleteAsset', { Id: x });
    expect(gone.status).toBe(200);
    // Just created: a listing may lag a create, so a missing asset is not taken as deleted yet.
    await runAssetChecks(m);
    expect(await statuses(m, [x, y])).toEqual([x, y].sort());
    await memberRows(m, 'UPDATE followed_assets SET created_at = created_at - ?', ASSET_GONE_AFTER_MS + 1);
    await runAssetChecks(m);
    expect(await statuses(m, [x, y])).toEqual([y]);
    expect(await followed(m)).not.toContain(x);
  });
});
