import { describe, expect, it } from 'vitest';
import { api, call, mediaUrl, waitFor, type Member } from '../testing/proxy-test-client';
import { group, heldAsset, member, MODEL, noUpstream, PNG, upstream } from '../testing/proxy-test-steps';

/**
 * Input checks before any upstream call (docs/proxy-api.md): a ValidationError envelope
 * (HTTP 400) naming the field on /api/v3; 400 invalid_parameter with error.param on /v1.
 */

/** A member owning one group, so that list operations would otherwise reach the service. */
async function setup(): Promise<{ m: Member; g: string }> {
  const m = await member();
  return { m, g: await group(m) };
}

describe('/api/v3 checks', () => {
  const expectInvalid = (r: Awaited<ReturnType<typeof api>>, field: string | RegExp) => {
    expect(r.status).toBe(400);
    expect(r.error?.Code).toBe('ValidationError');
    expect(r.envelope.Result).toBeUndefined();
    if (typeof field === 'string') expect(r.error?.Message.startsWith(`${field}:`), r.error?.Message).toBe(true);
    else expect(r.error?.Message).toMatch(field);
  };

  it('an unknown Action', async () => {
    const { m } = await setup();
    const r = await noUpstream(() => api(m, 'DropEverything', {}));
    expectInvalid(r, 'Action');
    expect(r.envelope.ResponseMetadata.Action).toBe('DropEverything');
    expectInvalid(await noUpstream(() => api(m, '', {})), 'Action');
  });

  it('a Version other than 2024-01-01', async () => {
    const { m } = await setup();
    expectInvalid(await noUpstream(() => api(m, 'ListAssetGroups', {}, { version: '2023-01-01' })), 'Version');
    expectInvalid(await noUpstream(() => api(m, 'ListAssetGroups', {}, { version: '' })), 'Version');
  });

  it('malformed JSON and non-object bodies', async () => {
    const { m } = await setup();
    expectInvalid(await noUpstream(() => api(m, 'ListAssetGroups', undefined, { rawBody: '{"PageSize":' })), 'body');
    expectInvalid(await noUpstream(() => api(m, 'CreateAssetGroup', undefined, { rawBody: '' })), 'body');
    expectInvalid(await noUpstream(() => api(m, 'CreateAssetGroup', undefined, { rawBody: '[{"Name":"x"}]' })), 'body');
  });

  it.each([
    ['a group Name of 0 characters', 'CreateAssetGroup', () => ({ Name: '' }), 'Name'],
    ['a group Name of 65 characters', 'CreateAssetGroup', () => ({ Name: 'n'.repeat(65) }), 'Name'],
    ['a group Description of 301 characters', 'CreateAssetGroup', () => ({ Name: 'ok', Description: 'd'.repeat(301) }), 'Description'],
    ['a GroupType other than AIGC on create', 'CreateAssetGroup', () => ({ Name: 'ok', GroupType: 'LivenessFace' }), 'GroupType'],
    ['an unknown parameter', 'CreateAssetGroup', () => ({ Name: 'ok', Owner: 'me' }), 'Owner'],
    ['an update Name of 65 characters', 'UpdateAssetGroup', (g: string) => ({ Id: g, Name: 'n'.repeat(65) }), 'Name'],
    ['an update Description of 301 characters', 'UpdateAssetGroup', (g: string) => ({ Id: g, Description: 'd'.repeat(301) }), 'Description'],
    ['PageSize 101 on ListAssetGroups', 'ListAssetGroups', () => ({ PageSize: 101 }), 'PageSize'],
    ['PageSize 101 on ListAssets', 'ListAssets', () => ({ PageSize: 101 }), 'PageSize'],
    ['PageSize 0', 'ListAssets', () => ({ PageSize: 0 }), 'PageSize'],
    ['a GroupIds filter that is not a list', 'ListAssets', (g: string) => ({ Filter: { GroupIds: g } }), 'Filter.GroupIds'],
    ['an unknown status filter', 'ListAssets', () => ({ Filter: { Statuses: ['Gone'] } }), 'Filter.Statuses[0]'],
    ['AssetType Gif', 'CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Gif', Name: 'a', URL: PNG() }), 'AssetType'],
    ['a URL with user info', 'CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'a', URL: 'https://user:pass@example.com/a.png' }), 'URL'],
    ['a relative URL', 'CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'a', URL: '/media/sample.png' }), 'URL'],
    ['an ftp:// URL', 'CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'a', URL: 'ftp://example.com/a.png' }), 'URL'],
    ['two URLs in one', 'CreateAsset', (g: string) => ({ GroupId: g, AssetType: 'Image', Name: 'a', URL: 'https://a.example/x.pnghttps://b.example/y.png' }), 'URL'],
    ['a missing GroupId', 'CreateAsset', () => ({ AssetType: 'Image', Name: 'a', URL: 'https://example.com/a.png' }), 'GroupId'],
    ['a missing Id', 'GetAsset', () => ({}), 'Id'],
    ['a non-boolean ContinuousCreate', 'CreatePortraitSession', () => ({ ContinuousCreate: 'yes' }), 'ContinuousCreate'],
    ['an empty PartnerToken', 'ResolvePartnerToken', () => ({ PartnerToken: '' }), 'PartnerToken'],
  ])('%s', async (_what, action, body, field) => {
    const { m, g } = await setup();
    const r = await noUpstream(() => api(m, action, body(g)));
    expectInvalid(r, field);
    expect(r.envelope.ResponseMetadata.Action).toBe(action);
  });

  it('the bounds themselves are accepted (Name 1 and 64, Description 300, PageSize 100)', async () => {
    const { m } = await setup();
    expect((await api(m, 'CreateAssetGroup', { Name: 'a' })).error).toBeUndefined();
    expect((await api(m, 'CreateAssetGroup', { Name: 'n'.repeat(64), Description: 'd'.repeat(300) })).error).toBeUndefined();
    expect((await api(m, 'ListAssetGroups', { PageSize: 100 })).result.PageSize).toBe(100);
  });

  it('plain http:// asset URLs are accepted only because ALLOW_HTTP_MEDIA is on in tests', async () => {
    const { m, g } = await setup();
    expect(mediaUrl).toMatch(/^http:\/\//);
    const { value: r, calls } = await upstream(() => api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'a', URL: PNG() }));
    expect(r.error).toBeUndefined();
    expect(calls('api/v3', 'CreateAsset')).toBe(1);
  });
});

describe('/v1/video/generations checks', () => {
  const post = (m: Member, body: unknown) => call(m, 'POST', '/v1/video/generations', body);
  const expectInvalid = (r: Awaited<ReturnType<typeof post>>, param: string) => {
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param });
    expect(r.body.error.message).toContain(param);
  };
  const text = { type: 'text', text: 'a cat' };
  const image = (url: string, role = 'reference_image') => ({ type: 'image_url', image_url: { url }, role });

  it.each([
    ['malformed JSON', '{"model":', 'body'],
    ['no text input', { model: MODEL, content: [image('https://example.com/a.png')] }, 'prompt'],
    ['a blank prompt', { model: MODEL, prompt: '   ' }, 'prompt'],
    ['no model', { prompt: 'x' }, 'model'],
    ['an element type the service does not define', { model: MODEL, content: [text, { type: 'gif_url', gif_url: { url: 'https://example.com/a.gif' } }] }, 'content[1].type'],
    ['an unknown field in an element', { model: MODEL, content: [text, { ...image('https://example.com/a.png'), weight: 2 }] }, 'content[1].weight'],
    ['an unknown role', { model: MODEL, content: [text, image('https://example.com/a.png', 'background')] }, 'content[1].role'],
    ['two URLs in one url', { model: MODEL, content: [text, image('https://a.example/x.pnghttps://b.example/y.png')] }, 'content[1].image_url'],
    ['two URLs separated by a space', { model: MODEL, content: [text, image('https://a.example/x.png https://b.example/y.png')] }, 'content[1].image_url'],
    ['a last_frame equal to the first_frame', { model: MODEL, content: [text, image('https://example.com/a.png', 'first_frame'), image('https://example.com/a.png', 'last_frame')] }, 'content[2].image_url'],
    ['frames on Seedance 2.0 (not in its catalog entry)', { model: MODEL, prompt: 'x', frames: 29 }, 'frames'],
    ['draft on Seedance 2.0', { model: MODEL, prompt: 'x', draft: true }, 'draft'],
    ['a duration outside the model range', { model: MODEL, prompt: 'x', duration: 20 }, 'duration'],
    ['a resolution the model does not offer', { model: 'doubao-seedance-2-0-fast-260128', prompt: 'x', resolution: '1080p' }, 'resolution'],
    ['callback_url (no model declares it)', { model: MODEL, prompt: 'x', callback_url: 'https://example.com/cb' }, 'callback_url'],
    ['a parameter on a model the catalog does not know', { model: 'some-future-model', prompt: 'x', seed: 1 }, 'seed'],
    ['an ftp:// reference', { model: MODEL, content: [text, image('ftp://example.com/a.png')] }, 'content[1].image_url'],
    ['a reference with user info', { model: MODEL, content: [text, image('https://u:p@example.com/a.png')] }, 'content[1].image_url'],
    ['a data: URI for video', { model: MODEL, content: [text, { type: 'video_url', video_url: { url: 'data:video/mp4;base64,AAAA' }, role: 'reference_video' }] }, 'content[1].video_url'],
    ['an SVG data URI image', { model: MODEL, content: [text, image('data:image/svg+xml;base64,AAAA')] }, 'content[1].image_url'],
    ['asset:// on a model that takes no library references', { model: 'doubao-seedance-1-0-pro-250528', content: [text, image('asset://asset-1', 'first_frame')] }, 'content[1].image_url'],
    ['a malformed asset:// reference', { model: MODEL, content: [text, image('asset://')] }, 'content[1].image_url'],
    ['an image in the compatibility field with a bad URL', { model: MODEL, prompt: 'x', image: 'ftp://example.com/a.png' }, 'image'],
  ])('%s: 400 invalid_parameter naming the field, nothing sent upstream', async (_what, body, param) => {
    const m = await member();
    expectInvalid(await noUpstream(() => post(m, body)), param);
  });

  it('asset:// of an asset the member does not own: 400 naming content[i].image_url', async () => {
    const m = await member();
    const r = await noUpstream(() => post(m, { model: MODEL, content: [text, image('https://example.com/a.png'), image('asset://asset-not-mine')] }));
    expectInvalid(r, 'content[2].image_url');
  });

  it('asset:// still Processing: 409 asset_not_ready naming the element, nothing sent to v1-create', async () => {
    const m = await member();
    const { id: a, release } = await heldAsset(m, await group(m));
    const { value: r, calls } = await upstream(() => post(m, { model: MODEL, content: [text, image(`asset://${a}`)] }));
    await release();
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'asset_not_ready', param: 'content[1].image_url' });
    expect(r.body.error.message).toMatch(/retry/i);
    expect(calls('v1-create')).toBe(0);
    expect(calls('api/v3', 'GetAsset')).toBe(1);
  });

  it('asset:// of a Failed asset: 400 invalid_parameter (never usable, not retryable), nothing sent to v1-create', async () => {
    const m = await member();
    const g = await group(m);
    const created = await api(m, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'svg', URL: `${mediaUrl}/media/sample.svg` });
    await waitFor(() => api(m, 'GetAsset', { Id: created.result.Id }), (r) => r.result.Status === 'Failed');
    const { value: r, calls } = await upstream(() => post(m, { model: MODEL, content: [text, image(`asset://${created.result.Id}`)] }));
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', 'content[1].image_url']);
    expect(r.body.error.message).toContain('Failed');
    expect(calls('v1-create')).toBe(0);
  });

  it('valid requests pass: http media (ALLOW_HTTP_MEDIA on), data:image URIs, first and last frames', async () => {
    const m = await member();
    const { value, calls } = await upstream(async () => [
      await post(m, { model: MODEL, content: [text, image(PNG(), 'first_frame'), image(`${mediaUrl}/media/sample.png?v=2`, 'last_frame')] }),
      await post(m, { model: MODEL, content: [text, image('data:image/png;base64,iVBORw0KGgo=')] }),
      await post(m, { model: 'doubao-seedance-1-0-lite-t2v-250428', prompt: 'x', frames: 29, resolution: '480p' }),
    ]);
    for (const r of value) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(calls('v1-create', 'POST')).toBe(3);
  });
});
