import { beforeEach, describe, expect, it } from 'vitest';
import type { VideoCreateBody } from '@@/shared';
import { pollQueuedCreates } from '@/lib/poll/queued-creates';
import { pollTasks } from '@/lib/poll/task-polling';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { taskStore } from '@/lib/storage/task-store';
import { submitTask } from '@/lib/tasks/task-submit';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { resetState } from '@/lib/testing/test-setup';

let proxy: VideoFakeProxy;
let client: ProxyClient;

const body = (text: string): VideoCreateBody => ({ model: 'doubao-seedance-2-0-260128', content: [{ type: 'text', text }], resolution: '720p' });
const all = async () => (await db()).getAll('tasks') as Promise<TaskRecord[]>;
const queueCalls = () => proxy.calls.filter((c) => c.path.startsWith('/proxy/queue')).map((c) => `${c.method} ${c.path}`);

/** One create the service runs now and `waiting` more the proxy queues (a cap of one running task). */
async function busy(waiting: number): Promise<TaskRecord[]> {
  proxy.maxRunning = 1;
  await submitTask(client, body('runs at once'));
  const records: TaskRecord[] = [];
  for (let i = 0; i < waiting; i++) records.push((await submitTask(client, body(`waits ${i + 1}`), Date.now, { localId: `w${i + 1}` })).record);
  return records;
}

beforeEach(async () => {
  await resetState();
  proxy = new VideoFakeProxy();
  client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
});

describe('a create the busy service cannot start now', () => {
  it('is asked for with Prefer: respond-async, and becomes a record waiting for the service with its queue item and place in line', async () => {
    proxy.arkbridge = { cost: 3.5, currency: 'CNY', priced: true };
    const [first, second] = await busy(2);

    expect(proxy.callsOf('createVideo').map((c) => c.prefer)).toEqual(['respond-async', 'respond-async', 'respond-async']);
    expect(first).toMatchObject({ localId: 'w1', status: 'waiting', queueId: [...proxy.queue.keys()][0], queuePosition: 1, cost: { cost: 3.5, currency: 'CNY', priced: true } });
    expect(first!.taskId).toBeUndefined();
    expect(second).toMatchObject({ localId: 'w2', status: 'waiting', queuePosition: 2 });
    expect((await all()).filter((r) => r.status === 'waiting')).toHaveLength(2);
  });
});

describe('pollQueuedCreates', () => {
  it('reads one waiting item by its id, and several with one list call', async () => {
    await busy(1);
    expect(await pollQueuedCreates(client)).toEqual([]);
    expect(queueCalls()).toEqual([`GET /proxy/queue/${[...proxy.queue.keys()][0]}`]);

    proxy.calls.length = 0;
    await submitTask(client, body('waits 2'));
    await submitTask(client, body('waits 3'));
    await pollQueuedCreates(client);
    expect(queueCalls()).toEqual(['GET /proxy/queue']);
  });

  it('keeps the place in line up to date as the creates before it launch', async () => {
    const [, , third] = await busy(3);
    expect(third!.queuePosition).toBe(3);
    proxy.launchQueued();
    const changed = await pollQueuedCreates(client);
    expect(changed.map((r) => [r.localId, r.status, r.queuePosition])).toEqual([
      ['w1', 'queued', undefined],
      ['w2', 'waiting', 1],
      ['w3', 'waiting', 2],
    ]);
    expect((await taskStore.get('w3'))!.queuePosition).toBe(2);
  });

  it('launched: the same record becomes the ordinary task (its local id, request and history kept), followed by the service’s id; no second record', async () => {
    const [waiting] = await busy(1);
    const before = (await all()).length;
    const taskId = proxy.launchQueued();
    proxy.setTask(taskId, { status: 'in_progress', progress: 30 });

    const { changed } = await pollTasks(client);

    const stored = (await taskStore.get('w1'))!;
    expect(stored).toMatchObject({ localId: 'w1', taskId, status: 'in_progress', progress: 30, body: waiting!.body, idempotencyKey: waiting!.idempotencyKey, createdAt: waiting!.createdAt });
    expect(stored.queueId).toBeUndefined();
    expect(stored.queuePosition).toBeUndefined();
    expect((await all()).length).toBe(before);
    expect(changed.filter((r) => r.localId === 'w1')).toEqual([stored]);
    // From now on an ordinary task, asked about by its id.
    expect(proxy.calls.at(-1)).toMatchObject({ action: 'getVideo', path: `/v1/video/generations/${taskId}` });
    proxy.setTask(taskId, { status: 'completed', progress: 100, metadata: { url: 'https://cdn.example.com/v.mp4' } });
    await pollTasks(client);
    expect(await taskStore.get('w1')).toMatchObject({ status: 'completed', videoUrl: 'https://cdn.example.com/v.mp4' });
  });

  it('failed: the task shows failed with the service’s message', async () => {
    await busy(1);
    proxy.failQueued([...proxy.queue.keys()][0]!, { code: 'InputImageSensitiveContentDetected', message: 'The input image may contain sensitive content.' });
    const [changed] = await pollQueuedCreates(client);
    expect(changed).toMatchObject({ localId: 'w1', status: 'failed', error: { code: 'InputImageSensitiveContentDetected', message: 'The input image may contain sensitive content.' } });
    expect(changed!.taskId).toBeUndefined();
  });

  it('cancelled (from another browser or page): the record shows Cancelled', async () => {
    await busy(2);
    const [first] = [...proxy.queue.values()];
    first!.status = 'cancelled';
    await pollQueuedCreates(client);
    expect((await taskStore.get('w1'))!.status).toBe('cancelled');
    expect((await taskStore.get('w2'))!.status).toBe('waiting');
  });

  it('an item the proxy no longer knows (404) fails the record: it can never launch', async () => {
    await busy(1);
    proxy.queue.clear();
    await pollQueuedCreates(client);
    expect(await taskStore.get('w1')).toMatchObject({ status: 'failed', error: { code: 'queue_item_not_found' } });
  });
});
