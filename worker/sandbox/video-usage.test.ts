import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { SandboxEnv } from './env';
import { upgradeSchema } from './state/service-schema';
import { DEV, helper, ORIGIN, v1, waitFor } from './testing/sandbox-test-client';

/**
 * `usage.completion_tokens` on a completed task: width x height x frames / 1024 at 24 fps, from
 * the create's resolution, ratio and duration or frames (shared/catalog/output-size.ts). Moves the
 * sandbox clock (this file's own storage) instead of sleeping.
 */

const media = inject('mediaBaseUrl');
const S2 = 'doubao-seedance-2-0-260128';
const PRO = 'doubao-seedance-1-0-pro-250528';
const T2V = 'doubao-seedance-1-0-lite-t2v-250428';
const S15 = 'doubao-seedance-1-5-pro-251215';

const create = (body: Record<string, unknown>) => v1('POST', '/v1/video/generations', { prompt: 'a kite over the sea', ...body });
const get = (id: string) => v1('GET', `/v1/video/generations/${id}`);

async function advance(seconds: number): Promise<void> {
  expect((await helper('POST', '/sandbox/clock', { advanceSeconds: seconds })).status).toBe(200);
}

/** Creates a task, moves the clock past its generation time (4 s in tests) and answers it completed. */
async function completed(body: Record<string, unknown>) {
  const created = await create(body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await advance(10);
  const done = await get(created.body.id);
  expect(done.body.status).toBe('completed');
  return done.body;
}

describe('usage.completion_tokens on a completed task', () => {
  it.each([
    ['1.0 Pro 1080p 16:9 5 s', { model: PRO, resolution: '1080p', ratio: '16:9', duration: 5 }, (1920 * 1088 * 120) / 1024],
    ['2.0 720p 9:16 4 s', { model: S2, resolution: '720p', ratio: '9:16', duration: 4 }, (704 * 1248 * 96) / 1024],
    ['2.0 480p 21:9 12 s', { model: S2, resolution: '480p', ratio: '21:9', duration: 12 }, (960 * 416 * 288) / 1024],
    ['2.0 480p adaptive (as 16:9) 5 s', { model: S2, resolution: '480p', ratio: 'adaptive', duration: 5 }, (864 * 480 * 120) / 1024],
    ['2.0 with nothing given: its default 720p, 16:9, 5 s', { model: S2 }, (1248 * 704 * 120) / 1024],
    ['1.0 Pro with nothing given: its default 1080p', { model: PRO }, 244_800],
    ['1.5 Pro 480p with duration -1: the 5 s the sandbox makes', { model: S15, resolution: '480p', duration: -1 }, (864 * 480 * 120) / 1024],
  ])('%s', async (_what, body, tokens) => {
    const task = await completed(body);
    expect(task.usage).toEqual({ completion_tokens: tokens });
    expect(Number.isInteger(task.usage.completion_tokens)).toBe(true);
  });

  it('counts frames when the create gives frames: 720p 1:1, 29 frames', async () => {
    const task = await completed({ model: T2V, resolution: '720p', ratio: '1:1', frames: 29 });
    expect(task.usage).toEqual({ completion_tokens: (960 * 960 * 29) / 1024 });
    expect(task.usage.completion_tokens).toBe(26_100);
  });

  it('is absent while queued and in_progress, present once completed, and unchanged later', async () => {
    const created = await create({ model: S2, resolution: '1080p', ratio: '4:3', duration: 5 });
    expect(created.body.status).toBe('queued');
    expect(created.body).not.toHaveProperty('usage');
    const queued = await get(created.body.id);
    expect(queued.body.status).toBe('queued');
    expect(queued.body).not.toHaveProperty('usage');

    await advance(1);
    const running = await get(created.body.id);
    expect(running.body.status).toBe('in_progress');
    expect(running.body).not.toHaveProperty('usage');

    await advance(5);
    const done = await get(created.body.id);
    expect(done.body.status).toBe('completed');
    expect(done.body.usage).toEqual({ completion_tokens: (1664 * 1248 * 120) / 1024 });
    await advance(60);
    expect((await get(created.body.id)).body).toEqual(done.body);
  });

  it('is absent on a failed task, however much time passes', async () => {
    const created = await v1('POST', '/v1/video/generations', {
      model: S2,
      resolution: '720p',
      content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `${media}/status/404` }, role: 'reference_image' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const failed = await waitFor(() => get(created.body.id), (r) => r.body.status === 'failed' || r.body.status === 'completed', 15_000);
    expect(failed.body.status).toBe('failed');
    expect(failed.body).not.toHaveProperty('usage');
    await advance(60);
    const later = await get(created.body.id);
    expect(later.body.status).toBe('failed');
    expect(later.body).not.toHaveProperty('usage');
  });

  it('is absent when an injected fault reports a completed task as unknown', async () => {
    const created = await create({ model: S2 });
    await advance(10);
    expect((await helper('POST', '/sandbox/faults', { target: 'v1-get', status: 200, taskStatus: 'unknown', count: 1 })).status).toBe(200);
    const unknown = await get(created.body.id);
    expect(unknown.body.status).toBe('unknown');
    expect(unknown.body).not.toHaveProperty('usage');
    expect((await get(created.body.id)).body.usage).toEqual({ completion_tokens: (1248 * 704 * 120) / 1024 });
  });
});

describe('a sandbox database persisted before usage', () => {
  it('gains the column on first use, keeps its tasks, and reports them with the model defaults', async () => {
    const namespace = (env as unknown as SandboxEnv).SERVICE;
    const stub = namespace.get(namespace.idFromName('schema-upgrade'));
    await runInDurableObject(stub, async (instance, state) => {
      const sql = state.storage.sql;
      const columns = () => sql.exec("SELECT name FROM pragma_table_info('tasks')").toArray().map((r) => r.name);
      // The tasks table as the earlier schema made it, with one task in it, an hour old.
      sql.exec('ALTER TABLE tasks DROP COLUMN completion_tokens');
      expect(columns()).not.toContain('completion_tokens');
      const id = 'cgt-20260101000000-000000000001';
      sql.exec(
        "INSERT INTO tasks (id, account, model, refs, download, created_at, refs_done_at) VALUES (?, ?, ?, '[]', 'ok', ?, ?)",
        id, DEV.name, PRO, Date.now() - 3600_000, Date.now() - 3600_000,
      );

      const task = instance.getTask(DEV.name, id, ORIGIN);
      expect(columns()).toContain('completion_tokens');
      expect(task).toMatchObject({ id, model: PRO, status: 'completed', usage: { completion_tokens: 244_800 } });

      // A second upgrade changes nothing; new tasks store their own count.
      upgradeSchema(sql);
      expect(columns().filter((c) => c === 'completion_tokens')).toHaveLength(1);
      expect(sql.exec('SELECT count(*) AS n FROM tasks').one().n).toBe(1);
      const created = await instance.createTask(DEV.name, { model: PRO, resolution: '480p', ratio: '1:1', duration: 2 }, [], ORIGIN);
      expect(created.ok).toBe(true);
      const stored = sql.exec('SELECT completion_tokens FROM tasks WHERE id = ?', created.ok ? created.task.id : '').one();
      expect(stored.completion_tokens).toBe((640 * 640 * 48) / 1024);
    });
  });
});
