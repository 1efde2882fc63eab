import { describe, expect, it } from 'vitest';
import { api, helper, ORIGIN, sandboxFetch, uniqueTag } from './testing/sandbox-test-client';

/**
 * Portrait sessions: link, token and expiry; the H5 page; ResolvePartnerToken while pending, after
 * completion and a second time; the completion call's validation. Expiry is in clock.test.ts.
 */

async function newSession(body: object = {}) {
  const res = await api('CreatePortraitSession', body);
  expect(res.error).toBeUndefined();
  return res.result as { H5Link: string; PartnerToken: string; ExpiresIn: number; ExpireTime: string };
}

const complete = (body: unknown) => helper('POST', '/sandbox/portrait/complete', body);
const page = async (link: string) => {
  const response = await sandboxFetch(link);
  return { status: response.status, type: response.headers.get('content-type') ?? '', html: await response.text() };
};

describe('CreatePortraitSession', () => {
  it('returns an H5Link on the sandbox, a PartnerToken, ExpiresIn seconds and the matching ISO ExpireTime', async () => {
    const before = Date.now();
    const s = await newSession();
    const link = new URL(s.H5Link);
    expect(link.origin).toBe(ORIGIN);
    expect(link.pathname).toMatch(/^\/h5\/portrait\/[0-9a-f]+$/);
    expect(typeof s.PartnerToken).toBe('string');
    expect(s.PartnerToken.length).toBeGreaterThanOrEqual(16);
    expect(s.H5Link).not.toContain(s.PartnerToken);
    expect(Number.isInteger(s.ExpiresIn)).toBe(true);
    expect(s.ExpiresIn).toBe(300);
    expect(s.ExpireTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const expires = Date.parse(s.ExpireTime);
    expect(expires).toBeGreaterThanOrEqual(before + s.ExpiresIn * 1000 - 2000);
    expect(expires).toBeLessThanOrEqual(Date.now() + s.ExpiresIn * 1000 + 2000);
  });

  it('gives a new link and token to every session', async () => {
    const [a, b] = [await newSession(), await newSession({ ContinuousCreate: true })];
    expect(a.H5Link).not.toBe(b.H5Link);
    expect(a.PartnerToken).not.toBe(b.PartnerToken);
  });
});

describe('the H5 page', () => {
  it('is fetchable and shows the authorization and personal-information rules, consent and the expiry', async () => {
    const s = await newSession();
    const p = await page(s.H5Link);
    expect(p.status).toBe(200);
    expect(p.type).toMatch(/^text\/html/);
    expect(p.html).toMatch(/<html/i);
    expect(p.html).toContain('Real-person authorization');
    expect(p.html).toMatch(/Authorization\.<\/strong> You allow/);
    expect(p.html).toContain('Personal information');
    expect(p.html).toContain('id="consent"');
    expect(p.html).toContain('/sandbox/portrait/complete');
    expect(p.html).toContain(s.ExpireTime.slice(0, 19));
    expect(p.html).not.toContain(s.PartnerToken);
  });

  it('answers 404 for a link that belongs to no session', async () => {
    const p = await page('/h5/portrait/0123456789abcdef01234567');
    expect(p.status).toBe(404);
    expect(p.html).toContain('does not belong to any authorization session');
  });

  it('shows the session as complete after the person finishes', async () => {
    const s = await newSession();
    await complete({ H5Link: s.H5Link, GroupName: 'me' });
    const p = await page(s.H5Link);
    expect(p.status).toBe(200);
    expect(p.html).toContain('Authorization is complete');
    expect(p.html).not.toContain('id="consent"');
  });
});

describe('ResolvePartnerToken', () => {
  it('while the person has not finished: ValidationError with HTTP 200, and it stays pending', async () => {
    const s = await newSession();
    for (let i = 0; i < 2; i++) {
      const res = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
      expect(res.status).toBe(200);
      expect(res.error?.Code).toBe('ValidationError');
      expect(res.error?.Message).toMatch(/not completed|retry/i);
      expect(res.envelope).not.toHaveProperty('Result');
    }
    expect((await page(s.H5Link)).html).toContain('id="consent"');
  });

  it('after completion: the group with the entered name and description, a LivenessFace group with Active images', async () => {
    const s = await newSession();
    const name = uniqueTag('Alice');
    const done = await complete({ H5Link: s.H5Link, GroupName: name, GroupDescription: 'lead actor' });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: 'completed' });

    const res = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(res.status).toBe(200);
    expect(res.error).toBeUndefined();
    expect(res.result).toEqual({ GroupId: expect.any(String), GroupName: name, GroupDescription: 'lead actor' });
    const groupId = res.result.GroupId as string;

    expect((await api('GetAssetGroup', { Id: groupId })).result).toEqual({ Id: groupId, Name: name, Description: 'lead actor', GroupType: 'LivenessFace' });
    const faceGroups = await api('ListAssetGroups', { Filter: { GroupType: 'LivenessFace', Name: name } });
    expect(faceGroups.result.Items.map((g: any) => g.Id)).toEqual([groupId]);
    expect((await api('ListAssetGroups', { Filter: { GroupIds: [groupId], GroupType: 'AIGC' } })).result.TotalCount).toBe(0);

    const assets = await api('ListAssets', { Filter: { GroupIds: [groupId], GroupType: 'LivenessFace' } });
    expect(assets.result.TotalCount).toBeGreaterThanOrEqual(1);
    const items = assets.result.Items as any[];
    expect(items.every((a) => a.GroupId === groupId)).toBe(true);
    const activeImages = items.filter((a) => a.Status === 'Active' && a.AssetType === 'Image');
    expect(activeImages.length).toBeGreaterThanOrEqual(1);
    // The capture is a real image served by the sandbox.
    const image = await sandboxFetch(activeImages[0].URL);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await image.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });

  it('a second resolution of the same token is a ValidationError (the session is invalid) and makes no second group', async () => {
    const s = await newSession();
    const name = uniqueTag('Bob');
    await complete({ H5Link: s.H5Link, GroupName: name });
    const first = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(first.result.GroupDescription).toBe('');
    const second = await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken });
    expect(second.status).toBe(200);
    expect(second.error?.Code).toBe('ValidationError');
    expect(second.error?.Message).toMatch(/no longer valid|already resolved/);
    expect(second.envelope).not.toHaveProperty('Result');
    expect((await api('ListAssetGroups', { Filter: { Name: name } })).result.TotalCount).toBe(1);
  });

  it('an unknown token is a ValidationError', async () => {
    const res = await api('ResolvePartnerToken', { PartnerToken: 'pt-unknown' });
    expect(res.status).toBe(200);
    expect(res.error?.Code).toBe('ValidationError');
    expect(res.error?.Message).toMatch(/^PartnerToken: /);
  });
});

describe('POST /sandbox/portrait/complete', () => {
  it.each([
    ['an empty GroupName', { GroupName: '' }, /^GroupName: .*1 to 64/],
    ['a 65-character GroupName', { GroupName: 'n'.repeat(65) }, /^GroupName: .*1 to 64/],
    ['a missing GroupName', { GroupName: undefined }, /^GroupName: is required/],
    ['a 301-character GroupDescription', { GroupName: 'ok', GroupDescription: 'd'.repeat(301) }, /^GroupDescription: .*300/],
    ['an unknown field', { GroupName: 'ok', Face: 'x' }, /^Face: is not a field/],
  ])('rejects %s with 400 naming the field, and the session stays pending', async (_what, fields, message) => {
    const s = await newSession();
    const res = await complete({ H5Link: s.H5Link, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect((await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken })).error?.Message).toMatch(/not completed/);
  });

  it('rejects a missing or malformed H5Link with 400', async () => {
    const missing = await complete({ GroupName: 'ok' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/^H5Link: is required/);
    const notALink = await complete({ H5Link: 'not a url', GroupName: 'ok' });
    expect(notALink.status).toBe(400);
    expect(notALink.body.message).toMatch(/^H5Link: /);
    const otherPath = await complete({ H5Link: `${ORIGIN}/somewhere/else`, GroupName: 'ok' });
    expect(otherPath.status).toBe(400);
    expect(otherPath.body.message).toMatch(/^H5Link: /);
  });

  it('rejects a body that is not a JSON object with 400', async () => {
    const res = await complete('[1]');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^body: must be a JSON object/);
  });

  it('rejects malformed JSON with 400 saying so', async () => {
    const res = await complete('{oops');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('body: is not valid JSON.');
  });

  it('answers 404 for a link of no session', async () => {
    const res = await complete({ H5Link: `${ORIGIN}/h5/portrait/0123456789abcdef01234567`, GroupName: 'ok' });
    expect(res.status).toBe(404);
  });

  it('answers 409 when the session was already completed, keeping the first name', async () => {
    const s = await newSession();
    expect((await complete({ H5Link: s.H5Link, GroupName: 'first' })).status).toBe(200);
    const again = await complete({ H5Link: s.H5Link, GroupName: 'second' });
    expect(again.status).toBe(409);
    expect((await api('ResolvePartnerToken', { PartnerToken: s.PartnerToken })).result.GroupName).toBe('first');
  });
});
