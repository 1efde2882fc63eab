import { describe, expect, it } from 'vitest';
import { ledgerObject } from '../../objects/handles';
import { appFetch, call, mediaUrl, proxyEnv, type Member } from '../../testing/proxy-test-client';
import { usage } from '../../testing/gateway-test-steps';
import { advanceSandbox, member, memberRows, runTracking } from '../../testing/proxy-test-steps';
import { cleanMediaStore } from './media-cleanup';

/**
 * A kept output keeps its last frame too (docs/media-store.md): a create with `return_last_frame`
 * is answered with `arkbridge.keptLastFrameUrl` beside `keptUrl`, served after the service's link
 * died, and deleted with the video. Against the sandbox, whose last frame is a real 320x180 PNG.
 */

const S2 = 'doubao-seedance-2-0-260128';

const get = (url: string) => {
  const u = new URL(url);
  return appFetch(`${u.pathname}${u.search}`);
};

/** A completed, tracked task with its kept copies. */
async function completed(m: Member, lastFrame: boolean) {
  const created = await call(m, 'POST', '/v1/video/generations', { model: S2, prompt: 'a lantern', duration: 4, ...(lastFrame ? { return_last_frame: true } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await advanceSandbox(60);
  await runTracking(m);
  const task = await call(m, 'GET', `/v1/video/generations/${created.body.id}`);
  expect(task.body.status).toBe('completed');
  return task.body;
}

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe('kept last frame', () => {
  it('is answered as keptLastFrameUrl and served byte for byte (image/png) after the service’s link expired', async () => {
    const m = await member();
    const task = await completed(m, true);
    const { keptUrl, keptLastFrameUrl } = task.arkbridge;
    expect(keptLastFrameUrl).toMatch(new RegExp(`^https://proxy\\.test/media/f-${m.id}-${task.id}\\?expires=\\d+&sig=[0-9a-f]{64}$`));
    expect(new URL(keptLastFrameUrl).searchParams.get('expires')).toBe(new URL(keptUrl).searchParams.get('expires'));
    const [video, frame] = [await bytesOf(await fetch(task.metadata.url)), await bytesOf(await fetch(task.metadata.last_frame_url))];
    expect((await usage(m)).storage.outputs).toBe(video.length + frame.length);

    await advanceSandbox(25 * 3600);
    expect((await fetch(task.metadata.last_frame_url)).status).toBe(410);
    const kept = await get(keptLastFrameUrl);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('content-type')).toBe('image/png');
    expect(await bytesOf(kept)).toEqual(frame);
    expect(await bytesOf(await get(keptUrl))).toEqual(video);
  });

  it('only when the task has a last frame', async () => {
    const m = await member();
    const task = await completed(m, false);
    expect(task.arkbridge.keptUrl).toEqual(expect.any(String));
    expect(task.arkbridge).not.toHaveProperty('keptLastFrameUrl');
  });

  it('is deleted with the video by DELETE /proxy/outputs/:taskId, freeing both', async () => {
    const m = await member();
    const task = await completed(m, true);
    const { keptUrl, keptLastFrameUrl } = task.arkbridge;
    expect((await call(m, 'DELETE', `/proxy/outputs/${task.id}`)).status).toBe(204);
    expect((await get(keptLastFrameUrl)).status).toBe(404);
    expect((await get(keptUrl)).status).toBe(404);
    expect((await usage(m)).storage.outputs).toBe(0);
    const after = (await call(m, 'GET', `/v1/video/generations/${task.id}`)).body.arkbridge;
    expect(after).toMatchObject({ keep: 'deleted' });
    expect(after).not.toHaveProperty('keptLastFrameUrl');
  });

  it('is deleted with the video by the cleanup past the keep date', async () => {
    const m = await member();
    const { arkbridge } = await completed(m, true);
    await cleanMediaStore(proxyEnv, ledgerObject(proxyEnv), arkbridge.keptUntil + 1);
    expect((await get(arkbridge.keptLastFrameUrl)).status).toBe(404);
    expect((await usage(m)).storage.outputs).toBe(0);
  });

  it('a last frame that cannot be copied keeps neither, and says why', async () => {
    const m = await member();
    const task = await completed(m, true);
    expect((await call(m, 'DELETE', `/proxy/outputs/${task.id}`)).status).toBe(204);
    // The copy tried again, as if the service's last-frame link had answered 404 (its video link still works).
    await memberRows(
      m,
      "UPDATE tasks SET keep_state = 'pending', keep_next_at = 1, next_check_at = 1, body = json_set(body, '$.metadata.last_frame_url', ?) WHERE id = ?",
      `${mediaUrl}/status/404`, task.id,
    );
    await runTracking(m);
    const after = (await call(m, 'GET', `/v1/video/generations/${task.id}`)).body.arkbridge;
    expect(after).toMatchObject({ keep: 'failed', keepError: expect.stringContaining("The service's last frame link answered HTTP 404.") });
    expect(after).not.toHaveProperty('keptUrl');
    expect((await get(task.arkbridge.keptUrl)).status).toBe(404);
    expect((await usage(m)).storage.outputs).toBe(0);
  });
});
