import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { api, call, mediaUrl, waitFor, type Member } from '../../testing/proxy-test-client';
import { advanceSandbox, asset, group, member, memberRows, upstream } from '../../testing/proxy-test-steps';
import { inbox, type Inbox } from '../../testing/webhook-test-steps';

/**
 * The proxy follows the assets a member creates to Active or Failed on the member object's alarm
 * (docs/webhooks.md): `asset.*` events arrive with no client asking, from one ListAssets listing per
 * member per interval, each told once; nothing is followed when no webhook takes asset events.
 */

async function hooked(events: string[]): Promise<{ m: Member; box: Inbox; secret: string }> {
  const m = await member('assets');
  const box = inbox();
  const r = await call(m, 'PUT', '/proxy/webhook', { url: box.url, events });
  expect(r.status).toBe(200);
  return { m, box, secret: r.body.secret };
}

const followed = (m: Member) => memberRows<{ id: string }>(m, 'SELECT id FROM followed_assets');

describe('assets followed by the proxy', () => {
  it('asset.active is delivered by the alarm alone: no GetAsset, one ListAssets for all, then no more', async () => {
    const { m, box, secret } = await hooked(['asset.active', 'asset.failed']);
    const g = await group(m);
    const { value: ids, calls } = await upstream(async () => {
      const a = await asset(m, g, 'first');
      const b = await asset(m, g, 'second');
      // Persisted before anything is told: a stop of the proxy from here on loses nothing.
      expect((await followed(m)).map((r) => r.id).sort()).toEqual([a, b].sort());
      await advanceSandbox(5);
      // Only the receiver is watched: the proxy's own alarm lists, tells and delivers.
      await waitFor(() => box.received(), (r) => r.length === 2);
      return [a, b];
    });
    expect(calls('api/v3', 'GetAsset')).toBe(0);
    expect(calls('api/v3', 'ListAssets')).toBeGreaterThanOrEqual(1);
    expect(calls('api/v3', 'ListAssets'), 'one listing per interval covers both').toBeLessThanOrEqual(2);
    const events = (await box.received()).map((d) => new Webhook(secret).verify(d.body, d.headers) as any);
    expect(events.map((e) => e.type)).toEqual(['asset.active', 'asset.active']);
    expect(events.map((e) => e.data.Id).sort()).toEqual([...ids].sort());
    expect(events[0].data).toMatchObject({ GroupId: g, Status: 'Active', AssetType: 'Image', arkbridge: { owner: m.id, createdBy: m.id } });
    // Told once, then no longer followed: the next intervals ask nothing.
    expect(await followed(m)).toEqual([]);
    expect(await memberRows(m, 'SELECT next_at FROM asset_watch')).toEqual([{ next_at: null }]);
  });

  it('asset.failed for an asset the service could not download, with its Error', async () => {
    const { m, box } = await hooked(['asset.failed']);
    const g = await group(m);
    const created = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'missing', URL: `${mediaUrl}/status/404` });
    expect(created.error).toBeUndefined();
    await advanceSandbox(5);
    const [delivery] = await waitFor(() => box.received(), (r) => r.length === 1);
    const event = JSON.parse(delivery!.body);
    expect(event.type).toBe('asset.failed');
    expect(event.data).toMatchObject({ Id: created.result.Id, Status: 'Failed', Error: { Code: 'ResourceDownloadFailed' } });
  });

  it('another member receives none of the events', async () => {
    const a = await hooked(['asset.active']);
    const b = await hooked(['asset.active']);
    const g = await group(a.m);
    await asset(a.m, g);
    await advanceSandbox(5);
    await waitFor(() => a.box.received(), (r) => r.length === 1);
    expect(await b.box.received()).toEqual([]);
    expect((await call(b.m, 'GET', '/proxy/webhook/deliveries')).body.deliveries).toEqual([]);
  });

  it('with no webhook taking asset events, the asset is dropped without a query', async () => {
    const m = await member();
    const g = await group(m);
    const { calls } = await upstream(async () => {
      await asset(m, g);
      await waitFor(() => followed(m), (rows) => rows.length === 0);
    });
    expect(calls('api/v3', 'ListAssets')).toBe(0);
  });
});
