import { beforeEach, describe, expect, it } from 'vitest';
import { pollTasks } from '@/lib/poll/task-polling';
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
});
