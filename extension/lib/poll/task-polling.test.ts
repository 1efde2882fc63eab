import { beforeEach, describe, expect, it } from 'vitest';
import { KEPT_FOLLOW_MS, KEPT_READ_MIN_MS, KEPT_URL_REFRESH_MS, nextKeptCopyRead, pollTasks, readKeptCopy } from '@/lib/poll/task-polling';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { proxyTestbed } from '@/lib/testing/test-setup';

let proxy: FakeProxy;
let client: ProxyClient;

const task = (localId: string, over: Partial<TaskRecord> = {}): TaskRecord => ({
  localId,
  taskId: `task-${localId}`,
  model: 'm',
  body: { model: 'm', content: [] } as unknown as TaskRecord['body'],
  status: 'queued',
  progress: 0,
  idempotencyKey: `key-${localId}`,
  notified: false,
  createdAt: 1,
  ...over,
});

beforeEach(async () => {
  ({ proxy, client } = await proxyTestbed());
});

describe('pollTasks', () => {
  it('asks only about unfinished tasks that have an id', async () => {
    const database = await db();
    await database.put('tasks', task('done', { status: 'completed', progress: 100 }));
    await database.put('tasks', task('sending', { status: 'submitting', taskId: undefined }));
    expect(await pollTasks(client)).toEqual({ changed: [], pending: 0 });
    expect(proxy.calls).toEqual([]);
  });

  it('stores progress and the end of each task', async () => {
    const database = await db();
    await database.put('tasks', task('a'));
    await database.put('tasks', task('b', { status: 'in_progress', progress: 40 }));
    await database.put('tasks', task('c', { status: 'in_progress', progress: 10 }));
    proxy.setTask('task-a', { status: 'in_progress', progress: 5 });
    proxy.setTask('task-b', { status: 'completed', progress: 100, completed_at: 1_700_000_000, metadata: { url: 'https://cdn.example.com/v.mp4' } });
    proxy.setTask('task-c', { status: 'in_progress', progress: 10 });

    const result = await pollTasks(client);
    expect(proxy.actions()).toEqual(['getVideo', 'getVideo', 'getVideo']);
    expect(result.changed.map((t) => [t.localId, t.status, t.progress])).toEqual([
      ['a', 'in_progress', 5],
      ['b', 'completed', 100],
    ]);
    expect(result.pending).toBe(2);
    expect(await database.get('tasks', 'b')).toMatchObject({ videoUrl: 'https://cdn.example.com/v.mp4', completedAt: 1_700_000_000_000 });
  });

  it('stores the cost of the proxy’s answer, also when only the cost changed, and keeps it when an answer has none', async () => {
    const database = await db();
    await database.put('tasks', task('a', { status: 'in_progress', progress: 40 }));
    proxy.setTask('task-a', { status: 'in_progress', progress: 40, arkbridge: { cost: 3.672, currency: 'CNY', priced: true } });
    expect((await pollTasks(client)).changed.map((t) => t.cost)).toEqual([{ cost: 3.672, currency: 'CNY', priced: true }]);
    expect(await pollTasks(client)).toMatchObject({ changed: [] });

    proxy.setTask('task-a', { status: 'completed', progress: 100, arkbridge: undefined });
    await pollTasks(client);
    expect(await database.get('tasks', 'a')).toMatchObject({ status: 'completed', cost: { cost: 3.672, currency: 'CNY', priced: true } });
  });

  it('ends a task the proxy no longer knows as failed', async () => {
    await (await db()).put('tasks', task('lost'));
    const result = await pollTasks(client);
    expect(result).toMatchObject({ pending: 0, changed: [{ localId: 'lost', status: 'failed', error: { code: 'task_not_found' } }] });
  });

  describe('the kept copy of a completed task', () => {
    const COST = { cost: 1, currency: 'CNY', priced: true };
    const url = (n: number) => `https://proxy.test/media/o-m-task-done?expires=${n}&sig=x`;
    const until = () => Math.floor(Date.now() / 1000) + 30 * 86_400;
    const done = (over: Partial<TaskRecord>) => task('done', { status: 'completed', progress: 100, videoUrl: 'https://cdn.example.com/v.mp4', cost: COST, ...over });

    it('stores the copy a task answer carries when the task completes', async () => {
      await (await db()).put('tasks', task('a', { status: 'in_progress', progress: 90 }));
      const keptUntil = until();
      proxy.setTask('task-a', { status: 'completed', progress: 100, arkbridge: { ...COST, keptUrl: url(1), keptUntil } });
      const before = Date.now();
      await pollTasks(client);
      const stored = (await (await db()).get('tasks', 'a'))!;
      expect(stored).toMatchObject({ status: 'completed', keptUrl: url(1), keptUntil });
      expect(stored.keptReadAt).toBeGreaterThanOrEqual(before);
    });

    it('reads a completed task again only when its address is older than 12 h, and stores the fresh one', async () => {
      const database = await db();
      const keptUntil = until();
      await database.put('tasks', done({ keptUrl: url(1), keptUntil, keptReadAt: Date.now() - KEPT_URL_REFRESH_MS + 60_000 }));
      proxy.setTask('task-done', { status: 'completed', progress: 100, arkbridge: { ...COST, keptUrl: url(2), keptUntil } });
      expect(await pollTasks(client)).toEqual({ changed: [], pending: 0 });
      expect(proxy.calls).toEqual([]);

      await database.put('tasks', done({ keptUrl: url(1), keptUntil, keptReadAt: Date.now() - KEPT_URL_REFRESH_MS - 1 }));
      const result = await pollTasks(client);
      expect(result.pending).toBe(0);
      expect(result.changed.map((t) => t.keptUrl)).toEqual([url(2)]);
      expect(await database.get('tasks', 'done')).toMatchObject({ status: 'completed', keptUrl: url(2), keptUntil });
      // Read now: not again.
      await pollTasks(client);
      expect(proxy.callsOf('getVideo')).toHaveLength(1);
    });

    it('never reads again a copy past its keep date, nor a task without a copy', async () => {
      const database = await db();
      await database.put('tasks', done({ keptUrl: url(1), keptUntil: Math.floor(Date.now() / 1000) - 1, keptReadAt: 0 }));
      await database.put('tasks', task('plain', { status: 'completed', progress: 100, keptReadAt: 0 }));
      await database.put('tasks', task('gone', { status: 'completed', progress: 100, keep: 'deleted', keptReadAt: 0 }));
      await pollTasks(client);
      expect(proxy.calls).toEqual([]);
    });

    it('reads a copy being made at most once a minute, until it is kept or failed', async () => {
      const database = await db();
      await database.put('tasks', done({ keep: 'pending', keptReadAt: Date.now() - KEPT_READ_MIN_MS }));
      proxy.setTask('task-done', { status: 'completed', progress: 100, arkbridge: { ...COST, keep: 'pending' } });
      expect(await pollTasks(client)).toEqual({ changed: [], pending: 0 });
      await pollTasks(client);
      await pollTasks(client);
      expect(proxy.callsOf('getVideo')).toHaveLength(1);

      await database.put('tasks', { ...(await database.get('tasks', 'done'))!, keptReadAt: Date.now() - KEPT_READ_MIN_MS });
      proxy.setTask('task-done', { status: 'completed', progress: 100, arkbridge: { ...COST, keep: 'failed', keepError: 'The service answered 403.' } });
      expect((await pollTasks(client)).changed).toMatchObject([{ keep: 'failed', keepError: 'The service answered 403.' }]);
      // Failed is final: not read again.
      await database.put('tasks', { ...(await database.get('tasks', 'done'))!, keptReadAt: 0 });
      await pollTasks(client);
      expect(proxy.callsOf('getVideo')).toHaveLength(2);
    });

    it('a copy being made is waited for (its next read) for two days after its create, then no more', async () => {
      const now = Date.now();
      expect(await nextKeptCopyRead(now)).toBeNull();
      await (await db()).put('tasks', done({ keep: 'pending', keptReadAt: now - 10_000, createdAt: now + KEPT_READ_MIN_MS - KEPT_FOLLOW_MS + 1 }));
      await (await db()).put('tasks', task('kept', { status: 'completed', keptUrl: url(1), keptUntil: until(), keptReadAt: now - KEPT_URL_REFRESH_MS }));
      expect(await nextKeptCopyRead(now)).toBe(now - 10_000 + KEPT_READ_MIN_MS);
      // Due already: now.
      expect(await nextKeptCopyRead(now + KEPT_READ_MIN_MS)).toBe(now + KEPT_READ_MIN_MS);
      expect(await nextKeptCopyRead(now + KEPT_READ_MIN_MS + 1)).toBeNull();
    });

    it('reads a copy being made at once when asked (the export), whatever the minute says', async () => {
      const database = await db();
      const record = done({ keep: 'pending', keptReadAt: Date.now() });
      await database.put('tasks', record);
      const keptUntil = until();
      proxy.setTask('task-done', { status: 'completed', progress: 100, arkbridge: { ...COST, keptUrl: url(2), keptUntil } });
      expect(await readKeptCopy(client, record)).toMatchObject({ keptUrl: url(2), keptUntil });
      expect(await database.get('tasks', 'done')).toMatchObject({ keptUrl: url(2), keptUntil });
      expect(proxy.callsOf('getVideo')).toHaveLength(1);
      // Nothing new: nothing stored; not a completed task: not read.
      expect(await readKeptCopy(client, (await database.get('tasks', 'done'))!)).toBeUndefined();
      expect(await readKeptCopy(client, task('open', { status: 'in_progress' }))).toBeUndefined();
      expect(proxy.callsOf('getVideo')).toHaveLength(2);
    });

    it('a deleted copy leaves nothing of the address; a proxy that no longer knows the task leaves it completed', async () => {
      const database = await db();
      await database.put('tasks', done({ keptUrl: url(1), keptUntil: until(), keptReadAt: 0 }));
      proxy.setTask('task-done', { status: 'completed', progress: 100, arkbridge: { ...COST, keep: 'deleted' } });
      await pollTasks(client);
      const stored = (await database.get('tasks', 'done'))!;
      expect(stored.keep).toBe('deleted');
      expect(stored).not.toHaveProperty('keptUrl');
      expect(stored).not.toHaveProperty('keptUntil');

      await database.put('tasks', done({ localId: 'lost', taskId: 'task-lost', keep: 'pending', keptReadAt: 0 }));
      await pollTasks(client);
      expect(proxy.callsOf('getVideo').map((c) => c.path)).toContain('/v1/video/generations/task-lost');
      expect(await database.get('tasks', 'lost')).toMatchObject({ status: 'completed', keep: 'pending' });
    });
  });
});
