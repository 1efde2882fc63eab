import { describe, expect, it } from 'vitest';
import { api, call, sandbox, seen } from '../../testing/proxy-test-client';
import { finishTasks } from '../../testing/gateway-test-steps';
import { consent, member, memberRows, noUpstream, portraitSession, upstream } from '../../testing/proxy-test-steps';
import { partnerTokens } from '../../testing/leak-guard';

/** Portrait custody (docs/proxy-api.md): consent first, an opaque handle, creator-only, single use. */

describe('CreatePortraitSession', () => {
  it('is refused without a consent on record: ValidationError naming consent, no upstream call', async () => {
    const m = await member();
    const r = await noUpstream(() => api(m, 'CreatePortraitSession', {}));
    expect(r.status).toBe(400);
    expect(r.error?.Code).toBe('ValidationError');
    expect(r.error?.Message).toMatch(/consent/i);
    expect(r.envelope.Result).toBeUndefined();
  });

  it("another member's consent does not count", async () => {
    const a = await member('consented');
    const b = await member('not-consented');
    await consent(a);
    const r = await noUpstream(() => api(b, 'CreatePortraitSession', {}));
    expect(r.error?.Code).toBe('ValidationError');
    expect(r.error?.Message).toMatch(/consent/i);
  });

  it("after POST /proxy/consents: the member gets an opaque ph_ handle; the service's token stays in the proxy", async () => {
    const m = await member();
    const start = seen.length;
    await consent(m);
    const { value: r, calls } = await upstream(() => api(m, 'CreatePortraitSession', { ContinuousCreate: true }));
    expect(calls('api/v3', 'CreatePortraitSession')).toBe(1);
    expect(r.status).toBe(200);
    expect(r.error).toBeUndefined();
    const handle = r.result.PartnerToken as string;
    expect(handle).toMatch(/^ph_[0-9a-f]{48}$/);

    const rows = await memberRows<{ handle: string; partner_token: string; state: string }>(m, 'SELECT * FROM portrait_handles');
    expect(rows).toHaveLength(1);
    const real = rows[0]!.partner_token;
    partnerTokens.push(real);
    expect(rows[0]).toMatchObject({ handle, state: 'pending' });
    expect(real).not.toBe(handle);
    expect(real.length).toBeGreaterThan(8);
    // Never in any response of this test (the leak guard checks every file too).
    for (const response of seen.slice(start)) expect(response).not.toContain(real);
    expect(r.result.H5Link).not.toContain(real);
  });
});

describe('ResolvePartnerToken', () => {
  it('while the person has not finished: ValidationError, and the handle stays usable', async () => {
    const m = await member();
    const s = await portraitSession(m);
    const { value: pending, calls } = await upstream(() => api(m, 'ResolvePartnerToken', { PartnerToken: s.handle }));
    expect(calls('api/v3', 'ResolvePartnerToken')).toBe(1);
    expect(pending.error?.Code).toBe('ValidationError');
    expect(pending.envelope.Result).toBeUndefined();
    expect(JSON.stringify(pending.envelope)).not.toContain(s.partnerToken);
    await sandbox.complete(s.h5Link, 'Later', '');
    expect((await api(m, 'ResolvePartnerToken', { PartnerToken: s.handle })).result.GroupName).toBe('Later');
  });

  it('after completion: the group belongs to the member, its LivenessFace assets are listed Active and readable', async () => {
    const m = await member();
    const other = await member('other');
    const s = await portraitSession(m);
    expect((await sandbox.complete(s.h5Link, 'Jane Doe', 'lead actor')).status).toBe(200);
    const resolved = await api(m, 'ResolvePartnerToken', { PartnerToken: s.handle });
    expect(resolved.status).toBe(200);
    expect(resolved.result).toEqual({ GroupId: expect.any(String), GroupName: 'Jane Doe', GroupDescription: 'lead actor' });
    const groupId = resolved.result.GroupId as string;

    expect((await api(m, 'GetAssetGroup', { Id: groupId })).result).toEqual({ Id: groupId, Name: 'Jane Doe', Description: 'lead actor', GroupType: 'LivenessFace' });
    const denied = await noUpstream(() => api(other, 'GetAssetGroup', { Id: groupId }));
    expect([denied.status, denied.error?.Code]).toEqual([403, 'AccessDenied']);

    const listed = await api(m, 'ListAssets', { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' } });
    expect(listed.result.TotalCount).toBeGreaterThanOrEqual(1);
    for (const item of listed.result.Items) {
      expect(item).toMatchObject({ GroupId: groupId, Status: 'Active', AssetType: 'Image' });
      const got = await api(m, 'GetAsset', { Id: item.Id });
      expect(got.result).toMatchObject({ Id: item.Id, Status: 'Active' });
      const theirs = await noUpstream(() => api(other, 'GetAsset', { Id: item.Id }));
      expect(theirs.error?.Code).toBe('AccessDenied');
    }
    expect((await api(m, 'ListAssetGroups', { Filter: { GroupType: 'LivenessFace' } })).result.Items.map((g: any) => g.Id)).toEqual([groupId]);

    // The service's token is spent and forgotten.
    const rows = await memberRows<{ partner_token: string; state: string }>(m, 'SELECT * FROM portrait_handles');
    expect(rows).toEqual([expect.objectContaining({ partner_token: '', state: 'resolved' })]);
  });

  it('a listed real-person asset can be referenced in a video request by its owner only', async () => {
    const m = await member();
    const other = await member('other');
    const s = await portraitSession(m);
    await sandbox.complete(s.h5Link, 'Ref', '');
    const groupId = (await api(m, 'ResolvePartnerToken', { PartnerToken: s.handle })).result.GroupId;
    const assetId = (await api(m, 'ListAssets', { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' } })).result.Items[0].Id;
    const body = { model: 'doubao-seedance-2-0-260128', content: [{ type: 'text', text: 'walks' }, { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' }] };
    const mine = await call(m, 'POST', '/v1/video/generations', body);
    expect(mine.status).toBe(200);
    // Ended first: while running, the owner's object asks the service about it every second (a call in the count).
    await finishTasks(m);
    const theirs = await noUpstream(() => call(other, 'POST', '/v1/video/generations', body));
    expect([theirs.status, theirs.body.error.param]).toEqual([400, 'content[1].image_url']);
  });

  it('a second resolve is refused (the handle is spent), without an upstream call', async () => {
    const m = await member();
    const s = await portraitSession(m);
    await sandbox.complete(s.h5Link, 'Once', '');
    expect((await api(m, 'ResolvePartnerToken', { PartnerToken: s.handle })).error).toBeUndefined();
    const again = await noUpstream(() => api(m, 'ResolvePartnerToken', { PartnerToken: s.handle }));
    expect(again.status).toBe(400);
    expect(again.error?.Code).toBe('ValidationError');
    expect(again.error?.Message).toMatch(/PartnerToken/);
  });

  it('another member cannot resolve the handle: AccessDenied, no upstream call; the creator still can', async () => {
    const m = await member();
    const other = await member('other');
    const s = await portraitSession(m);
    await sandbox.complete(s.h5Link, 'Mine', '');
    const denied = await noUpstream(() => api(other, 'ResolvePartnerToken', { PartnerToken: s.handle }));
    expect([denied.status, denied.error?.Code]).toEqual([403, 'AccessDenied']);
    // Not even with the service's own token, which the proxy does not know as a handle.
    const raw = await noUpstream(() => api(other, 'ResolvePartnerToken', { PartnerToken: s.partnerToken }));
    expect(raw.error?.Code).toBe('AccessDenied');
    expect((await api(m, 'ResolvePartnerToken', { PartnerToken: s.handle })).result.GroupName).toBe('Mine');
  });

  it('the service token itself is not a handle, even for the creator', async () => {
    const m = await member();
    const s = await portraitSession(m);
    const r = await noUpstream(() => api(m, 'ResolvePartnerToken', { PartnerToken: s.partnerToken }));
    expect(r.error?.Code).toBe('AccessDenied');
    expect(JSON.stringify(r.envelope)).not.toContain(s.partnerToken);
  });

  it('an expired handle is refused without an upstream call', async () => {
    const m = await member();
    const s = await portraitSession(m);
    await sandbox.complete(s.h5Link, 'Too late', '');
    await memberRows(m, 'UPDATE portrait_handles SET expires_at = ? WHERE handle = ?', Date.now() - 1000, s.handle);
    const r = await noUpstream(() => api(m, 'ResolvePartnerToken', { PartnerToken: s.handle }));
    expect(r.status).toBe(400);
    expect(r.error?.Code).toBe('ValidationError');
    expect(r.error?.Message).toMatch(/expired/);
  });
});
