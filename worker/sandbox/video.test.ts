import { describe, expect, inject, it } from 'vitest';
import { MODELS } from '../../shared';
import { DEV, helper, OTHER, newAsset, newGroup, sandboxFetch, settled, v1, waitFor } from './testing/sandbox-test-client';

/**
 * The video interface without moving the clock: model listing, bearer keys, create validation,
 * library references, failed references and the `unknown` status. The timed lifecycle is in
 * clock.test.ts.
 */

const media = inject('mediaBaseUrl');
const MODEL = 'doubao-seedance-2-0-260128';
const png = `${media}/media/sample.png`;
const jpg = `${media}/media/sample.jpg`;

const create = (body: unknown, account = DEV) => v1('POST', '/v1/video/generations', body, account);
const get = (id: string) => v1('GET', `/v1/video/generations/${id}`);
const text = (t = 'a cat on a skateboard') => ({ type: 'text', text: t });
const image = (url: string, role = 'reference_image') => ({ type: 'image_url', image_url: { url }, role });

describe('GET /v1/models', () => {
  it('lists every catalog model id under data[] for each account key', async () => {
    for (const account of [DEV, OTHER]) {
      const res = await v1('GET', '/v1/models', undefined, account);
      expect(res.status).toBe(200);
      expect(res.body.data.map((m: any) => m.id).sort()).toEqual(MODELS.map((m) => m.id).sort());
    }
  });
});

describe('bearer API key', () => {
  const calls = [
    ['GET', '/v1/models', undefined],
    ['POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }],
    ['GET', '/v1/video/generations/cgt-20260101000000-000000000000', undefined],
  ] as const;

  it.each(calls)('%s %s without Authorization is 401 unauthorized', async (method, path, body) => {
    const res = await v1(method, path, body, null);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it.each(calls)('%s %s with an unknown key is 401 unauthorized', async (method, path, body) => {
    const res = await v1(method, path, body, { ...DEV, apiKey: 'sk-not-a-key' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('the access key id is not an API key (401), nor is a non-Bearer scheme', async () => {
    expect((await v1('GET', '/v1/models', undefined, { ...DEV, apiKey: DEV.accessKeyId })).status).toBe(401);
    const basic = await sandboxFetch('/v1/models', { headers: { Authorization: `Basic ${DEV.apiKey}` } });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as any).error.code).toBe('unauthorized');
  });
});

describe('POST /v1/video/generations validation: 400 invalid_parameter naming the parameter', () => {
  const cases: [string, unknown, string][] = [
    ['malformed JSON', '{"model": ', 'body'],
    ['no model', { prompt: 'x' }, 'model'],
    ['an unknown model', { model: 'doubao-seedance-9-9', prompt: 'x' }, 'model'],
    ['no text input', { model: MODEL, content: [image(png, 'first_frame')] }, 'prompt'],
    ['a blank prompt', { model: MODEL, prompt: '   ' }, 'prompt'],
    ['frames on a model that does not support it', { model: MODEL, prompt: 'x', frames: 121 }, 'frames'],
    ['draft on a model that does not support it', { model: MODEL, prompt: 'x', draft: true }, 'draft'],
    ['a duration outside the model range', { model: MODEL, prompt: 'x', duration: 3 }, 'duration'],
    ['a resolution the model does not offer', { model: 'doubao-seedance-2-0-fast-260128', prompt: 'x', resolution: '1080p' }, 'resolution'],
    ['a parameter the service does not define', { model: MODEL, prompt: 'x', fps: 24 }, 'fps'],
    ['a last_frame equal to the first_frame', { model: MODEL, content: [text(), image(png, 'first_frame'), image(png, 'last_frame')] }, 'content[2].image_url'],
    ['a last_frame without a first_frame', { model: MODEL, content: [text(), image(png, 'last_frame')] }, 'content[1].image_url'],
    ['two URLs in one url', { model: MODEL, content: [text(), image(`${png} ${jpg}`)] }, 'content[1].image_url'],
    ['two URLs joined by a comma', { model: MODEL, content: [text(), image(`${png},${jpg}`)] }, 'content[1].image_url'],
    ['a URL that is neither http(s), asset:// nor data:', { model: MODEL, content: [text(), image('ftp://example.com/a.png')] }, 'content[1].image_url'],
    ['an SVG data URI', { model: MODEL, content: [text(), image('data:image/svg+xml;base64,PHN2Zz4=')] }, 'content[1].image_url'],
    ['asset:// on a model that takes no library references', { model: 'doubao-seedance-1-0-pro-250528', content: [text(), image('asset://asset-1', 'first_frame')] }, 'content[1].image_url'],
    ['a malformed asset:// reference', { model: MODEL, content: [text(), image('asset://')] }, 'content[1].image_url'],
    ['frames and reference media mixed', { model: MODEL, content: [text(), image(png, 'first_frame'), image(jpg)] }, 'content[2].image_url'],
    ['ten reference images where the model takes nine', { model: MODEL, content: [text(), ...Array.from({ length: 10 }, (_, i) => image(`${png}?${i}`))] }, 'content[10].image_url'],
    ['an element type the service does not define', { model: MODEL, content: [text(), { type: 'file_url', file_url: { url: png } }] }, 'content[1].type'],
    ['an image role the service does not define', { model: MODEL, content: [text(), image(png, 'background')] }, 'content[1].role'],
  ];

  it.each(cases)('%s', async (_what, body, param) => {
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', type: 'invalid_request_error', param });
    expect(res.body.error.message).toContain(param);
    expect(res.body).not.toHaveProperty('id');
  });
});

describe('POST /v1/video/generations acceptance', () => {
  it('answers 200 with the task: id, task_id, object video, model, queued, progress 0, created_at', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await create({ model: MODEL, prompt: 'a paper boat', ratio: '16:9', duration: 5, resolution: '720p' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: res.body.id, task_id: res.body.id, object: 'video', model: MODEL, status: 'queued', progress: 0, created_at: res.body.created_at });
    expect(typeof res.body.id).toBe('string');
    expect(res.body.created_at).toBeGreaterThanOrEqual(before - 1);
    expect(res.body.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  it('each create makes one new task; polling returns the same task', async () => {
    const body = { model: MODEL, prompt: 'same body twice' };
    const [a, b] = [await create(body), await create(body)];
    expect(a.body.id).not.toBe(b.body.id);
    const polled = [await get(a.body.id), await get(a.body.id)];
    for (const p of polled) {
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ id: a.body.id, task_id: a.body.id, object: 'video', model: MODEL, created_at: a.body.created_at });
      expect(['queued', 'in_progress', 'completed']).toContain(p.body.status);
      expect(p.body.progress).toBeGreaterThanOrEqual(0);
      expect(p.body.progress).toBeLessThanOrEqual(100);
    }
  });

  it('accepts reference media of each kind for a 2.0 model, and a data:image URI', async () => {
    const res = await create({
      model: MODEL,
      content: [
        text('dance to the beat'),
        image(png),
        image('data:image/png;base64,iVBORw0KGgo='),
        { type: 'video_url', video_url: { url: `${media}/media/sample.mp4` }, role: 'reference_video' },
        { type: 'audio_url', audio_url: { url: `${media}/media/sample.mp3` }, role: 'reference_audio' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('queued');
  });
});

describe('library references (asset://)', () => {
  it('an asset that does not exist: 400 invalid_parameter naming the element', async () => {
    const res = await create({ model: MODEL, content: [text(), image(png), image('asset://asset-00000000000000000000')] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[2].image_url' });
  });

  it('an asset still Processing: 409 asset_not_ready naming the element; accepted once Active', async () => {
    const assetId = await newAsset(await newGroup(), `${media}/slow/1500/sample.png`);
    const early = await create({ model: MODEL, content: [text(), image(`asset://${assetId}`)] });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('asset_not_ready');
    expect(early.body.error.param).toBe('content[1].image_url');
    expect(early.body.error.message).toContain(assetId);
    expect(early.body).not.toHaveProperty('id');

    expect((await settled(assetId)).Status).toBe('Active');
    const later = await create({ model: MODEL, content: [text(), image(`asset://${assetId}`)] });
    expect(later.status).toBe(200);
    expect(later.body.status).toBe('queued');
    // The other 2.0 model may use the same asset id; only `model` changes.
    const fast = await create({ model: 'doubao-seedance-2-0-fast-260128', content: [text(), image(`asset://${assetId}`)] });
    expect(fast.status).toBe(200);
  });

  it('a Failed asset: 400 invalid_parameter (never usable), not the retryable 409', async () => {
    const assetId = await newAsset(await newGroup(), `${media}/status/404`);
    expect((await settled(assetId)).Status).toBe('Failed');
    const res = await create({ model: MODEL, content: [text(), image(`asset://${assetId}`)] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    expect(res.body.error.message).toContain('Failed');
  });

  it('an Active Video asset used as image_url: 400 naming the element', async () => {
    const videoAsset = await newAsset(await newGroup(), `${media}/media/sample.mp4`, 'Video');
    expect((await settled(videoAsset)).Status).toBe('Active');
    const res = await create({ model: MODEL, content: [text(), image(`asset://${videoAsset}`)] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'content[1].image_url' });
    const asVideo = await create({ model: MODEL, content: [text(), { type: 'video_url', video_url: { url: `asset://${videoAsset}` }, role: 'reference_video' }] });
    expect(asVideo.status).toBe(200);
  });
});

describe('references that cannot be downloaded', () => {
  const failedTask = async (body: unknown) => {
    const created = await create(body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return waitFor(() => get(created.body.id), (r) => r.body.status === 'failed' || r.body.status === 'completed', 15_000);
  };

  it('an image reference answering 404 ends the task failed, InvalidParameter, naming content[<i>].image_url', async () => {
    const res = await failedTask({ model: MODEL, content: [text(), image(png), image(`${media}/status/404`)] });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.error.code).toBe('InvalidParameter');
    expect(res.body.error.message).toContain('content[2].image_url');
    expect(res.body.error.message).not.toContain('content[1].image_url');
    expect(res.body.error.message).toMatch(/404/);
    expect(res.body).not.toHaveProperty('metadata');
  });

  it('a reference video with the wrong Content-Type ends the task failed naming content[<i>].video_url', async () => {
    const res = await failedTask({
      model: MODEL,
      content: [text(), { type: 'video_url', video_url: { url: `${media}/wrong-type/sample.mp4` }, role: 'reference_video' }],
    });
    expect(res.body.status).toBe('failed');
    expect(res.body.error.code).toBe('InvalidParameter');
    expect(res.body.error.message).toContain('content[1].video_url');
  });

  it('a first frame given as an SVG file ends the task failed naming content[<i>].image_url', async () => {
    const res = await failedTask({ model: MODEL, content: [text(), image(`${media}/media/sample.svg`, 'first_frame')] });
    expect(res.body.status).toBe('failed');
    expect(res.body.error.message).toContain('content[1].image_url');
  });

  it('the compatibility field images[] is named images[<i>]', async () => {
    const res = await failedTask({ model: MODEL, prompt: 'x', images: [png, `${media}/status/404`] });
    expect(res.body.status).toBe('failed');
    expect(res.body.error.message).toContain('images[1]');
  });
});

describe('status unknown', () => {
  it('an injected v1-get fault reports the task as unknown once, without result fields; then the real status returns', async () => {
    const created = await create({ model: MODEL, prompt: 'unknown for a moment' });
    const fault = await helper('POST', '/sandbox/faults', { target: 'v1-get', status: 200, taskStatus: 'unknown', count: 1 });
    expect(fault.status).toBe(200);

    const unknown = await get(created.body.id);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ id: created.body.id, task_id: created.body.id, object: 'video', model: MODEL, status: 'unknown' });
    expect(unknown.body).not.toHaveProperty('metadata');
    expect(unknown.body).not.toHaveProperty('completed_at');

    const after = await get(created.body.id);
    expect(after.status).toBe(200);
    expect(['queued', 'in_progress', 'completed']).toContain(after.body.status);
  });

  it('a failed task reported as unknown carries no error object (error is only on failure)', async () => {
    const created = await create({ model: MODEL, content: [text(), image(`${media}/status/404`)] });
    await waitFor(() => get(created.body.id), (r) => r.body.status === 'failed');
    await helper('POST', '/sandbox/faults', { target: 'v1-get', status: 200, taskStatus: 'unknown' });
    const unknown = await get(created.body.id);
    expect(unknown.body.status).toBe('unknown');
    expect(unknown.body).not.toHaveProperty('error');
    expect((await get(created.body.id)).body.error.code).toBe('InvalidParameter');
  });
});
