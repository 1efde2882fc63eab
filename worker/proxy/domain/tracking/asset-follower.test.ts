import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { memberObject } from '../../objects/handles';
import { api, call, mediaUrl, proxyEnv, waitFor, type Member } from '../../testing/proxy-test-client';
import { advanceSandbox, asset, group, member, memberRows, noUpstream, runAssetChecks, upstream } from '../../testing/proxy-test-steps';
import { inbox, type Inbox } from '../../testing/webhook-test-steps';

/**
 * The proxy follows the assets a member creates to Active or Failed on the member object's alarm
 * (docs/webhooks.md): `asset.*` events arrive with no client asking, from one ListAssets listing per
 * member per interval, each told once; and the member's browsers read how they ended from the
 * proxy's storage (`POST /proxy/assets/statuses`), with no call to the service.
 */

async function hooked(events: string[]): Promise<{ m: Member; box: Inbox; secret: string }> {
  const m = await member('assets');
  const box = inbox();
  const r = await call(m, 'PUT', '/proxy/webhook', { url: box.url, events });
  expect(r.status).toBe(200);
  return { m, box, secret: r.body.secret };
}

const memberAlarm = (m: Member) => runInDurableObject(memberObject(proxyEnv, m.id), (_instance, state) => state.storage.getAlarm());
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
      // The object armed its own alarm for the listing (here a day away: ASSET_CHECK_SECONDS).
      const next_at = (await memberRows<{ next_at: number }>(m, 'SELECT next_at FROM asset_watch'))[0]!.next_at;
      expect(next_at).toBeGreaterThan(Date.now());
      expect(await memberAlarm(m)).toBeLessThanOrEqual(next_at);
      await advanceSandbox(5);
      await runAssetChecks(m);
      // Only the receiver is watched: the proxy's own alarm lists, tells and delivers.
      await waitFor(() => box.received(), (r) => r.length === 2);
      return [a, b];
    });
    expect(calls('api/v3', 'GetAsset')).toBe(0);
    expect(calls('api/v3', 'ListAssets'), 'one listing covers both').toBe(1);
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
    await runAssetChecks(m);
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
    await runAssetChecks(a.m);
    await waitFor(() => a.box.received(), (r) => r.length === 1);
    expect(await b.box.received()).toEqual([]);
    expect((await call(b.m, 'GET', '/proxy/webhook/deliveries')).body.deliveries).toEqual([]);
  });

  it('with no webhook taking asset events, the asset is still followed to its end, and no event is written', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    expect(await followed(m)).toEqual([{ id: a }]);
    await advanceSandbox(5);
    await runAssetChecks(m);
    await waitFor(() => followed(m), (rows) => rows.length === 0);
    expect(await memberRows(m, 'SELECT id, status FROM asset_outcomes')).toEqual([{ id: a, status: 'Active' }]);
    expect(await memberRows(m, 'SELECT id FROM webhook_outbox')).toEqual([]);
  });
});

const statuses = (m: Member, ids: unknown) => call(m, 'POST', '/proxy/assets/statuses', { ids });

describe('POST /proxy/assets/statuses', () => {
  it('answers Processing, then Active, from the proxy\'s storage: asking costs the service nothing', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    const first = await noUpstream(() => statuses(m, [a]));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ assets: [{ id: a, status: 'Processing', error: null, endedAt: null }] });
    await advanceSandbox(5);
    await runAssetChecks(m);
    await waitFor(() => followed(m), (rows) => rows.length === 0);
    // However many browsers of the member ask, and however often: no upstream call.
    const later = await noUpstream(async () => {
      const answers = await Promise.all([1, 2, 3].map(() => statuses(m, [a, a])));
      return answers.map((r) => r.body);
    });
    for (const body of later) {
      expect(body.assets).toHaveLength(1);
      expect(body.assets[0]).toMatchObject({ id: a, status: 'Active', error: null });
      expect(Date.parse(body.assets[0].endedAt)).not.toBeNaN();
    }
  });

  it('a failed asset carries the service\'s Error code and message', async () => {
    const m = await member();
    const g = await group(m);
    const created = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'missing', URL: `${mediaUrl}/status/404` });
    await advanceSandbox(5);
    await runAssetChecks(m);
    const [entry] = (await waitFor(() => statuses(m, [created.result.Id]), (r) => r.body.assets[0]?.status === 'Failed')).body.assets;
    expect(entry.error.code).toBe('ResourceDownloadFailed');
    expect(entry.error.message.length).toBeGreaterThan(0);
  });

  it('leaves out what it does not follow: another member\'s asset, an unknown id, a deleted asset, a deleted group\'s', async () => {
    const a = await member('a');
    const b = await member('b');
    const ga = await group(a);
    const kept = await asset(a, ga, 'kept');
    const deleted = await asset(a, ga, 'deleted');
    const gone = await group(a, 'gone');
    const inGone = await asset(a, gone, 'in-gone');
    expect((await statuses(b, [kept])).body).toEqual({ assets: [] });
    expect((await statuses(a, ['asset-unknown'])).body).toEqual({ assets: [] });
    expect((await api(a, 'DeleteAsset', { Id: deleted })).error).toBeUndefined();
    expect((await api(a, 'DeleteAssetGroup', { Id: gone })).error).toBeUndefined();
    expect((await statuses(a, [kept, deleted, inGone])).body.assets.map((x: { id: string }) => x.id)).toEqual([kept]);
    await advanceSandbox(5);
    await runAssetChecks(a);
    await waitFor(() => followed(a), (rows) => rows.length === 0);
    expect((await statuses(a, [inGone, deleted, kept])).body.assets.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([[kept, 'Active']]);
  });

  it('an asset\'s end is kept across a restart of the proxy, and one that ends after it is still followed', async () => {
    const m = await member();
    const g = await group(m);
    const a = await asset(m, g);
    await abortAllDurableObjects();
    await advanceSandbox(5);
    await runAssetChecks(m);
    await waitFor(() => statuses(m, [a]), (r) => r.body.assets[0]?.status === 'Active');
    await abortAllDurableObjects();
    expect((await statuses(m, [a])).body.assets[0]).toMatchObject({ id: a, status: 'Active' });
  });

  it('refuses a bad body with 400 naming the field, and a foreign token with 401', async () => {
    const m = await member();
    for (const [ids, param] of [[[], 'ids'], [Array(101).fill('x'), 'ids'], [['ok', 7], 'ids[1]'], [['y'.repeat(129)], 'ids[0]'], ['one', 'ids']] as const) {
      const r = await statuses(m, ids);
      expect(r.status, JSON.stringify(ids).slice(0, 40)).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    const r = await call('ark_not_a_token', 'POST', '/proxy/assets/statuses', { ids: ['a'] });
    expect(r.status).toBe(401);
  });
});
