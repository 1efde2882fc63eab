import { describe, expect, it } from 'vitest';
import { admin } from '../../testing/gateway-test-steps';
import { call, type Member } from '../../testing/proxy-test-client';
import { asset, group, member } from '../../testing/proxy-test-steps';
import { revoke, shared } from '../../testing/sharing-test-steps';

/** Sources of assets (docs/proxy-api.md#asset-sources): set by the owner, read by whoever may see the asset. */

const SOURCE = { pageUrl: 'https://example.com/gallery?p=2', pageTitle: 'Kites of the world', capturedAt: '2026-11-26T09:30:00.000Z', how: 'link' };

const setSource = (m: Member, assetId: string, body: unknown) => call(m, 'PUT', `/proxy/assets/${encodeURIComponent(assetId)}/source`, body);
const sources = async (m: Member, ids: string[]) => call(m, 'POST', '/proxy/sources', { ids });

/** An owner with a group holding one asset with a source. */
async function ownedWithSource() {
  const owner = await member('owner');
  const g = await group(owner);
  const x = await asset(owner, g);
  const r = await setSource(owner, x, SOURCE);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { owner, g, x, set: r.body };
}

describe('asset sources', () => {
  it('the owner sets a source and reads it back, cleaned of control and bidirectional characters', async () => {
    const { owner, x, set } = await ownedWithSource();
    expect(set).toEqual({ assetId: x, source: { ...SOURCE, owner: owner.id, updatedAt: expect.any(String) } });
    const again = await setSource(owner, x, { pageUrl: 'https://example.com/\u202Eevil', pageTitle: 'a\u0000b\u202Ec\u2066d\u0007', capturedAt: '2026-11-26T10:30:00+01:00', how: 'screenshot' });
    expect(again.status).toBe(200);
    expect(again.body.source).toMatchObject({ pageUrl: 'https://example.com/evil', pageTitle: 'abcd', capturedAt: '2026-11-26T09:30:00.000Z', how: 'screenshot' });
    const read = await sources(owner, [x, x]);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ sources: { [x]: again.body.source } });
  });

  it('a viewer and an editor of a shared group read its assets\' sources; a stranger and a non-grantee do not', async () => {
    const { owner, g, x } = await ownedWithSource();
    const [viewer, editor, stranger] = [await member('viewer'), await member('editor'), await member('stranger')];
    const h = await group(owner, 'private');
    const y = await asset(owner, h);
    expect((await setSource(owner, y, { ...SOURCE, how: 'upload' })).status).toBe(200);
    await shared(owner, g, { members: { [viewer.id]: 'viewer', [editor.id]: 'editor' } });
    for (const grantee of [viewer, editor]) {
      const r = await sources(grantee, [x, y, 'no-such-asset']);
      expect(r.status).toBe(200);
      // The private group's asset is left out, as an id that does not exist.
      expect(r.body).toEqual({ sources: { [x]: expect.objectContaining({ ...SOURCE, owner: owner.id }) } });
    }
    expect((await sources(stranger, [x, y])).body).toEqual({ sources: {} });
    // A grantee may read it, not set it; a stranger is told nothing exists.
    expect((await setSource(editor, x, SOURCE)).body.error).toMatchObject({ code: 'not_owner', param: 'assetId' });
    expect((await setSource(viewer, x, SOURCE)).status).toBe(403);
    const refused = await setSource(stranger, x, SOURCE);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('asset_not_found');
    // A role taken back: the source is gone from the former grantee's view at once.
    await shared(owner, g, { members: { [viewer.id]: 'none' } });
    expect((await sources(viewer, [x])).body).toEqual({ sources: {} });
  });

  it('a revoked member reads nothing: the token stops', async () => {
    const { owner, g, x } = await ownedWithSource();
    const viewer = await member('viewer');
    await shared(owner, g, { members: { [viewer.id]: 'viewer' } });
    await revoke(viewer);
    expect((await sources(viewer, [x])).status).toBe(401);
    expect((await setSource(owner, x, SOURCE)).status).toBe(200);
  });

  it.each([
    [{ ...SOURCE, pageUrl: 'javascript:alert(1)' }, 'pageUrl'],
    [{ ...SOURCE, pageUrl: `https://example.com/${'a'.repeat(2048)}` }, 'pageUrl'],
    [{ ...SOURCE, pageTitle: 'x'.repeat(301) }, 'pageTitle'],
    [{ ...SOURCE, pageTitle: 7 }, 'pageTitle'],
    [{ ...SOURCE, capturedAt: 'yesterday' }, 'capturedAt'],
    [{ ...SOURCE, how: 'stolen' }, 'how'],
    [{ ...SOURCE, extra: 1 }, 'extra'],
    [{ pageUrl: null, pageTitle: null, how: 'file' }, 'capturedAt'],
  ])('bad input is 400 naming the field (%#)', async (body, field) => {
    const { owner, x } = await ownedWithSource();
    const r = await setSource(owner, x, body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', param: field });
    expect(r.body.error.message).toContain(field);
  });

  it('a local file has no page: null URL and title are kept', async () => {
    const { owner, x } = await ownedWithSource();
    const r = await setSource(owner, x, { pageUrl: null, pageTitle: null, capturedAt: SOURCE.capturedAt, how: 'file' });
    expect(r.body.source).toMatchObject({ pageUrl: null, pageTitle: null, how: 'file' });
  });

  it('a lookup names 1 to 100 ids: more, none, or an id that is not a string is 400 naming the field', async () => {
    const m = await member();
    const many = Array.from({ length: 101 }, (_, i) => `a${i}`);
    expect((await sources(m, many)).body.error).toMatchObject({ code: 'invalid_parameter', param: 'ids' });
    expect((await sources(m, [])).body.error).toMatchObject({ code: 'invalid_parameter', param: 'ids' });
    expect((await call(m, 'POST', '/proxy/sources', { ids: ['ok', 5] })).body.error).toMatchObject({ code: 'invalid_parameter', param: 'ids[1]' });
    expect((await call(m, 'POST', '/proxy/sources', { ids: ['x'.repeat(129)] })).body.error).toMatchObject({ param: 'ids[0]' });
    expect((await sources(m, many.slice(0, 100))).body).toEqual({ sources: {} });
  });

  it("a transfer carries a revoked member's sources to the heir, and grantees still see them", async () => {
    const { owner, g, x } = await ownedWithSource();
    const [heir, viewer] = [await member('heir'), await member('viewer')];
    await shared(owner, g, { members: { [viewer.id]: 'viewer' } });
    await revoke(owner);
    expect((await admin('POST', `/admin/members/${owner.id}/transfer`, { to: heir.id })).status).toBe(200);
    expect((await sources(heir, [x])).body.sources[x]).toMatchObject({ ...SOURCE, owner: heir.id });
    expect((await sources(viewer, [x])).body.sources[x]).toMatchObject({ ...SOURCE, owner: heir.id });
    expect((await setSource(heir, x, { ...SOURCE, how: 'frame' })).status).toBe(200);
  });
});
