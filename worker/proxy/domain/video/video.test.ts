import { describe, expect, it } from 'vitest';
import { call, mediaUrl, sandbox, waitFor } from '../../testing/proxy-test-client';
import { asset, group, member, MODEL, noUpstream, PNG, staleRecord, untilActive, upstream } from '../../testing/proxy-test-steps';

/** The video interface through the proxy (docs/proxy-api.md, "Video"): models, create, get. */

describe('GET /v1/models', () => {
  it("relays the service's model listing", async () => {
    const m = await member();
    const { value: r, calls } = await upstream(() => call(m, 'GET', '/v1/models'));
    expect(r.status).toBe(200);
    expect(calls('v1-models', 'GET')).toBe(1);
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([MODEL, 'doubao-seedance-1-0-lite-t2v-250428']));
  });
});

describe('POST /v1/video/generations and GET /v1/video/generations/{id}', () => {
  it('creates one task per request and reads it back until completed', async () => {
    const m = await member();
    const { value: created, calls } = await upstream(() => call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'a red kite', resolution: '720p', duration: 5 }));
    expect(calls('v1-create', 'POST')).toBe(1);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(String), object: 'video', model: MODEL, status: 'queued', progress: 0, created_at: expect.any(Number) });
    expect(created.body.task_id).toBe(created.body.id);

    // Fresh from the create: answered from the proxy's record.
    const { value: recorded, calls: recordCalls } = await upstream(() => call(m, 'GET', `/v1/video/generations/${created.body.id}`));
    expect(recordCalls('v1-get', 'GET')).toBe(0);
    expect(recorded.body).toEqual(created.body);

    await staleRecord(m, created.body.id);
    const { value: got, calls: getCalls } = await upstream(() => call(m, 'GET', `/v1/video/generations/${created.body.id}`));
    expect(getCalls('v1-get', 'GET')).toBe(1);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: created.body.id, model: MODEL, status: expect.stringMatching(/^(queued|in_progress|completed)$/) });

    const done = await waitFor(() => call(m, 'GET', `/v1/video/generations/${created.body.id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(done.body).toMatchObject({ status: 'completed', progress: 100, completed_at: expect.any(Number), metadata: { url: expect.stringMatching(/\.mp4$/) } });
  });

  it('a task whose reference cannot be downloaded fails, with the error naming the element', async () => {
    const m = await member();
    const created = await call(m, 'POST', '/v1/video/generations', {
      model: MODEL,
      content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `${mediaUrl}/status/404` }, role: 'reference_image' }],
    });
    expect(created.status).toBe(200);
    const failed = await waitFor(() => call(m, 'GET', `/v1/video/generations/${created.body.id}`), (r) => r.body.status === 'failed' || r.body.status === 'completed');
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe('failed');
    expect(failed.body.error.code).toBe('InvalidParameter');
    expect(failed.body.error.message).toContain('content[1].image_url');
  });

  it('accepts an Active library asset as asset://<id>, after one readiness check', async () => {
    const m = await member();
    const a = await asset(m, await group(m));
    await untilActive(m, a);
    const body = { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${a}` }, role: 'reference_image' }] };
    const { value: r, calls } = await upstream(() => call(m, 'POST', '/v1/video/generations', body));
    expect(r.status).toBe(200);
    expect(calls('v1-create', 'POST')).toBe(1);
    // One readiness check per referenced asset.
    expect(calls('api/v3', 'GetAsset')).toBe(1);
  });

  it('accepts reference video and audio from plain URLs', async () => {
    const m = await member();
    const r = await call(m, 'POST', '/v1/video/generations', {
      model: MODEL,
      content: [
        { type: 'text', text: 'dance' },
        { type: 'image_url', image_url: { url: PNG() }, role: 'reference_image' },
        { type: 'video_url', video_url: { url: `${mediaUrl}/media/sample.mp4` }, role: 'reference_video' },
        { type: 'audio_url', audio_url: { url: `${mediaUrl}/media/sample.mp3` }, role: 'reference_audio' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it("relays a task status the service reports, such as unknown", async () => {
    const m = await member();
    const created = await call(m, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
    await staleRecord(m, created.body.id);
    await sandbox.fault({ target: 'v1-get', status: 200, taskStatus: 'unknown', count: 1 });
    const r = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: created.body.id, status: 'unknown' });
  });

  it('an unknown route answers 404 without an upstream call', async () => {
    const m = await member();
    const r = await noUpstream(() => call(m, 'DELETE', '/v1/video/generations/x'));
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});
