import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ALL_FORMATS, BufferSource, Input, MP4 } from 'mediabunny';
import type { SandboxEnv } from './env';
import { resultVideo } from './media/files';
import { DEV, helper, ORIGIN, sandboxFetch, v1 } from './testing/sandbox-test-client';

/**
 * What a completed task serves: a video of the length asked (`/sandbox/videos/<id>.mp4`) and, when
 * asked with `return_last_frame`, its last frame as a PNG (`/sandbox/frames/<id>.png`), both gone
 * 24 hours after completion. Moves the sandbox clock instead of sleeping.
 */

const S2 = 'doubao-seedance-2-0-260128';
const S15 = 'doubao-seedance-1-5-pro-251215';
const PRO = 'doubao-seedance-1-0-pro-250528';

const create = (body: Record<string, unknown>) => v1('POST', '/v1/video/generations', { prompt: 'a paper boat', ...body });

async function advance(seconds: number): Promise<void> {
  expect((await helper('POST', '/sandbox/clock', { advanceSeconds: seconds })).status).toBe(200);
}

async function completed(body: Record<string, unknown>) {
  const created = await create(body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await advance(10);
  const done = await v1('GET', `/v1/video/generations/${created.body.id}`);
  expect(done.body.status).toBe('completed');
  return done.body;
}

async function secondsOf(url: string): Promise<number> {
  const response = await sandboxFetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('video/mp4');
  const input = new Input({ formats: [MP4], source: new BufferSource(await response.arrayBuffer()) });
  const seconds = await input.computeDuration([(await input.getPrimaryVideoTrack())!]);
  input.dispose();
  return seconds;
}

/** PNG chunks by type, in order. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const found = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    found.push({ type: new TextDecoder().decode(png.subarray(at + 4, at + 8)), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return found;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('the video of a completed task lasts what was asked', () => {
  it.each([
    ['duration 5', { model: S2, duration: 5 }, 5],
    ['duration 7', { model: S2, duration: 7 }, 7],
    ['no duration: the model’s default', { model: S2 }, 5],
    ['duration -1: the model picks (5 s in the sandbox)', { model: S15, duration: -1 }, 5],
    ['frames 97 at 24 per second (4.04 s, to the next frame of the 15 fps fixture)', { model: PRO, frames: 97 }, 61 / 15],
  ])('%s', async (_what, body, seconds) => {
    const task = await completed(body);
    expect(await secondsOf(task.metadata.url)).toBeCloseTo(seconds, 6);
  });

  it('keeps Range support', async () => {
    const { metadata } = await completed({ model: S2, duration: 6 });
    const whole = new Uint8Array(await (await sandboxFetch(metadata.url)).arrayBuffer());
    const part = await sandboxFetch(metadata.url, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.slice(100, 200));
  });

  it('a task stored before lengths were kept serves the 2 s fixture', async () => {
    const namespace = (env as unknown as SandboxEnv).SERVICE;
    const id = 'cgt-20260101000000-0000000000aa';
    await runInDurableObject(namespace.get(namespace.idFromName('service')), (_instance, state) => {
      state.storage.sql.exec(
        "INSERT INTO tasks (id, account, model, refs, download, created_at, refs_done_at) VALUES (?, ?, ?, '[]', 'ok', ?, ?)",
        id, DEV.name, S2, Date.now() - 60_000, Date.now() - 60_000,
      );
    });
    const served = await sandboxFetch(`${ORIGIN}/sandbox/videos/${id}.mp4`);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(resultVideo);
  });
});

describe('a sandbox database persisted before lengths and last frames', () => {
  it('gains both columns on first use; its tasks keep the fixture and no last frame', async () => {
    const namespace = (env as unknown as SandboxEnv).SERVICE;
    await runInDurableObject(namespace.get(namespace.idFromName('schema-upgrade-lengths')), async (instance, state) => {
      const sql = state.storage.sql;
      const columns = () => sql.exec("SELECT name FROM pragma_table_info('tasks')").toArray().map((r) => r.name);
      sql.exec('ALTER TABLE tasks DROP COLUMN video_seconds');
      sql.exec('ALTER TABLE tasks DROP COLUMN last_frame');
      const id = 'cgt-20260101000000-0000000000bb';
      sql.exec(
        "INSERT INTO tasks (id, account, model, refs, download, created_at, refs_done_at) VALUES (?, ?, ?, '[]', 'ok', ?, ?)",
        id, DEV.name, S2, Date.now() - 60_000, Date.now() - 60_000,
      );
      expect(instance.taskOutput(id)).toEqual({ expired: false, seconds: null, lastFrame: false, size: null });
      expect(columns()).toEqual(expect.arrayContaining(['video_seconds', 'last_frame', 'video_size']));
      expect(instance.getTask(DEV.name, id, ORIGIN)?.metadata).toEqual({ url: `${ORIGIN}/sandbox/videos/${id}.mp4` });
    });
  });
});

/** Width and height of a PNG, from its IHDR. */
function pngSize(png: Uint8Array): [number, number] {
  const header = chunks(png)[0]!;
  expect(header.type).toBe('IHDR');
  const view = new DataView(header.data.buffer, header.data.byteOffset, 8);
  return [view.getUint32(0), view.getUint32(4)];
}

/** Display width and height of an MP4's video track. */
async function videoSize(url: string): Promise<[number, number]> {
  const response = await sandboxFetch(url);
  expect(response.status).toBe(200);
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(await response.arrayBuffer()) });
  const track = (await input.getPrimaryVideoTrack())!;
  const size: [number, number] = [track.displayWidth, track.displayHeight];
  input.dispose();
  return size;
}

describe('the video and its last frame are the size asked (resolution x ratio, shared/catalog/output-size.ts)', () => {
  it.each([
    ['480p 16:9', { model: S2, resolution: '480p', ratio: '16:9' }, [864, 480]],
    ['1080p 9:16', { model: S15, resolution: '1080p', ratio: '9:16' }, [1088, 1920]],
    ['720p 21:9', { model: S2, resolution: '720p', ratio: '21:9' }, [1504, 640]],
    ['adaptive: 16:9', { model: S2, resolution: '480p', ratio: 'adaptive' }, [864, 480]],
    ['no resolution: the model’s default (720p), at the ratio asked', { model: S2, ratio: '1:1' }, [960, 960]],
  ])('%s', async (_what, body, size) => {
    const task = await completed({ ...body, duration: 5, return_last_frame: true });
    expect(await videoSize(task.metadata.url)).toEqual(size);
    const frame = await sandboxFetch(task.metadata.last_frame_url);
    expect(frame.status).toBe(200);
    expect(pngSize(new Uint8Array(await frame.arrayBuffer()))).toEqual(size);
  });

  it('keeps the length asked at every size', async () => {
    const task = await completed({ model: S2, resolution: '480p', ratio: '4:3', duration: 7 });
    expect(await secondsOf(task.metadata.url)).toBeCloseTo(7, 6);
    expect(await videoSize(task.metadata.url)).toEqual([736, 544]);
  });

  it('a task stored before sizes were kept serves 320x180', async () => {
    const namespace = (env as unknown as SandboxEnv).SERVICE;
    const id = 'cgt-20260101000000-0000000000cc';
    await runInDurableObject(namespace.get(namespace.idFromName('service')), (_instance, state) => {
      state.storage.sql.exec(
        "INSERT INTO tasks (id, account, model, refs, download, created_at, refs_done_at, video_seconds, last_frame) VALUES (?, ?, ?, '[]', 'ok', ?, ?, 4, 1)",
        id, DEV.name, S2, Date.now() - 60_000, Date.now() - 60_000,
      );
    });
    expect(await videoSize(`${ORIGIN}/sandbox/videos/${id}.mp4`)).toEqual([320, 180]);
    expect(pngSize(new Uint8Array(await (await sandboxFetch(`${ORIGIN}/sandbox/frames/${id}.png`)).arrayBuffer()))).toEqual([320, 180]);
  });
});

describe('return_last_frame', () => {
  it('completes with metadata.last_frame_url: a real PNG of the video’s size (the model’s default, 720p 16:9), gone with the video', async () => {
    const task = await completed({ model: S2, duration: 5, return_last_frame: true });
    expect(task.metadata.last_frame_url).toBe(`${ORIGIN}/sandbox/frames/${task.id}.png`);

    const frame = await sandboxFetch(task.metadata.last_frame_url);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('image/png');
    const png = new Uint8Array(await frame.arrayBuffer());
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const parts = chunks(png);
    const header = new DataView(parts[0]!.data.buffer, parts[0]!.data.byteOffset, 13);
    expect(parts[0]!.type).toBe('IHDR');
    const [width, height, depth, colour] = [header.getUint32(0), header.getUint32(4), header.getUint8(8), header.getUint8(9)];
    expect([width, height, depth]).toEqual([1248, 704, 8]);
    // Each row: a filter byte, then RGBA (colour type 6) or RGB (2) samples.
    const channels = { 2: 3, 6: 4 }[colour as 2 | 6];
    const idat = parts.filter((p) => p.type === 'IDAT').map((p) => [...p.data]).flat();
    expect((await inflate(new Uint8Array(idat))).length).toBe(height * (1 + width * channels!));

    await advance(24 * 3600 + 60);
    expect((await sandboxFetch(task.metadata.last_frame_url)).status).toBe(410);
    expect((await sandboxFetch(task.metadata.url)).status).toBe(410);
  });

  it('only when asked: no last_frame_url, and no frame served', async () => {
    const task = await completed({ model: S2, duration: 5 });
    expect(task.metadata).toEqual({ url: `${ORIGIN}/sandbox/videos/${task.id}.mp4` });
    expect((await sandboxFetch(`${ORIGIN}/sandbox/frames/${task.id}.png`)).status).toBe(404);
    expect((await sandboxFetch(`${ORIGIN}/sandbox/frames/cgt-none.png`)).status).toBe(404);
  });

  it('refused for a model that does not declare it, and with draft', async () => {
    const refused = await create({ model: PRO, return_last_frame: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_parameter', param: 'return_last_frame' });
    const withDraft = await create({ model: S15, resolution: '480p', draft: true, return_last_frame: true });
    expect(withDraft.status).toBe(400);
    expect(withDraft.body.error.code).toBe('invalid_parameter');
  });
});
