import { beforeEach, describe, expect, it } from 'vitest';
import type { VideoCreateBody } from '@@/shared';
import { pollTasks } from '@/lib/poll/task-polling';
import { ApiError } from '@/lib/proxy/api-failure';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { GIVE_UP_AFTER_MS, MAX_SERVICE_ATTEMPTS, resumeSubmissions, submitAgain, submitTask, type SubmittingTask } from '@/lib/tasks/task-submit';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { resetState } from '@/lib/testing/test-setup';

let proxy: VideoFakeProxy;
let client: ProxyClient;
let clock: number;
const now = () => clock;

const body: VideoCreateBody = {
  model: 'doubao-seedance-2-0-260128',
  content: [
    { type: 'text', text: 'A cat surfing at dawn' },
    { type: 'image_url', image_url: { url: 'https://cdn.example.com/cat.png' }, role: 'reference_image' },
  ],
  resolution: '720p',
};

const allTasks = async () => (await db()).getAll('tasks') as Promise<SubmittingTask[]>;

beforeEach(async () => {
  await resetState();
  proxy = new VideoFakeProxy();
  client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
  clock = 1_000_000;
});

describe('submitTask', () => {
  it('writes the record and its Idempotency-Key to IndexedDB before the request', async () => {
    let seen: TaskRecord[] = [];
    proxy.onCreate = async () => void (seen = await allTasks());

    const { record, failure } = await submitTask(client, body, now);

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ status: 'submitting', body, model: body.model, progress: 0, createdAt: clock, notified: false });
    const [call] = proxy.callsOf('createVideo');
    expect(call!.idempotencyKey).toBe(seen[0]!.idempotencyKey);
    expect(call!.body).toEqual(body);
    expect(failure).toBeUndefined();
    expect(record).toMatchObject({ localId: seen[0]!.localId, taskId: 'cgt-1', status: 'queued', progress: 0 });
    expect(await allTasks()).toEqual([record]);
  });

  it('stores the cost the proxy’s answer carries with the task', async () => {
    proxy.arkbridge = { cost: 3.672, currency: 'CNY', priced: true };
    const { record } = await submitTask(client, body, now);
    expect(record.cost).toEqual({ cost: 3.672, currency: 'CNY', priced: true });
    expect((await allTasks())[0]!.cost).toEqual({ cost: 3.672, currency: 'CNY', priced: true });
  });

  it('a create refused for the budget (402) or for too many running tasks (429) fails at once and is never sent again', async () => {
    proxy.failNext('createVideo', { kind: 'video-error', status: 402, code: 'budget_exceeded', message: 'Over budget.', extra: { scope: 'team', remaining: 0, cost: 3.672, currency: 'CNY' } });
    const poor = await submitTask(client, body, now);
    expect(poor.record).toMatchObject({ status: 'failed', error: { code: 'budget_exceeded', message: 'Over budget.' } });
    expect(poor.failure).toMatchObject({ kind: 'rejected', refusal: { code: 'budget_exceeded', scope: 'team' } });
    proxy.failNext('createVideo', { kind: 'video-error', status: 429, code: 'too_many_running_tasks', message: 'Too many.', extra: { running: 3, maxRunning: 3 } });
    const busy = await submitTask(client, body, now);
    expect(busy.record).toMatchObject({ status: 'failed', error: { code: 'too_many_running_tasks' } });
    expect(busy.record.retryAt).toBeUndefined();
    clock += 3600_000;
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 0, accepted: 0 });
    expect(proxy.callsOf('createVideo')).toHaveLength(2);
    expect(proxy.taskCount).toBe(0);
  });

  it('every submit is a new record with a new key', async () => {
    const a = await submitTask(client, body, now);
    const b = await submitTask(client, body, now);
    expect(a.record.idempotencyKey).not.toBe(b.record.idempotencyKey);
    expect(a.record.localId).not.toBe(b.record.localId);
    expect(proxy.taskCount).toBe(2);
  });

  it('a timeout keeps the record submitting; resuming repeats with the same key and makes one task', async () => {
    proxy.failNext('createVideo', { kind: 'timeout-after-commit' });
    const first = await submitTask(client, body, now);
    expect(first.failure?.kind).toBe('timeout');
    expect(first.record).toMatchObject({ status: 'submitting', attempts: 1 });
    expect(first.record.taskId).toBeUndefined();
    expect(proxy.taskCount).toBe(1); // the service did create it

    clock += 2_000; // too early: the page that sent it may still be waiting
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 0, accepted: 0 });

    clock += 10_000;
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 1, accepted: 1 });
    const keys = proxy.callsOf('createVideo').map((c) => c.idempotencyKey);
    expect(keys).toEqual([first.record.idempotencyKey, first.record.idempotencyKey]);
    expect(proxy.taskCount).toBe(1);
    const [stored] = await allTasks();
    expect(stored).toMatchObject({ taskId: 'cgt-1', status: 'queued' });
    expect(stored).not.toHaveProperty('attempts');
    expect(stored).not.toHaveProperty('retryAt');

    // Nothing left to send; the task is now polled by id.
    clock += 60_000;
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 0, accepted: 0 });
    proxy.setTask('cgt-1', { status: 'in_progress', progress: 30 });
    await pollTasks(client);
    expect((await allTasks())[0]).toMatchObject({ status: 'in_progress', progress: 30 });
  });

  it('a popup closed mid-request (the answer lost) never makes a second task', async () => {
    proxy.failNext('createVideo', { kind: 'network-after-commit' });
    const first = await submitTask(client, body, now);
    expect(first.failure?.kind).toBe('network');
    clock += 60_000;
    await resumeSubmissions(client, now);
    await resumeSubmissions(client, now);
    expect(proxy.taskCount).toBe(1);
    expect(new Set(proxy.callsOf('createVideo').map((c) => c.idempotencyKey)).size).toBe(1);
    expect((await allTasks())[0]).toMatchObject({ taskId: 'cgt-1', status: 'queued' });
  });

  it('a create still running at the proxy (409 in progress) is asked again with the same key', async () => {
    proxy.failNext('createVideo', { kind: 'video-error', status: 409, code: 'idempotency_in_progress', message: 'A request with this Idempotency-Key is still running.' });
    const first = await submitTask(client, body, now);
    expect(first.failure?.kind).toBe('in_progress');
    expect(first.record.status).toBe('submitting');
    clock += 6_000;
    await resumeSubmissions(client, now);
    expect((await allTasks())[0]).toMatchObject({ taskId: 'cgt-1', status: 'queued' });
  });

  it('a refused request ends failed with the message naming the element, and is never sent again', async () => {
    const bad: VideoCreateBody = { ...body, content: [body.content![0]!, { type: 'image_url', image_url: { url: 'http://cdn.example.com/cat.png' }, role: 'reference_image' }] };
    const { record, failure } = await submitTask(client, bad, now);
    expect(failure).toMatchObject({ kind: 'rejected', status: 400, field: 'content[1].image_url' });
    expect(record.status).toBe('failed');
    expect(record.error).toEqual({ code: 'invalid_parameter', message: expect.stringMatching(/^content\[1\]\.image_url: must be an https:\/\/ URL/) });
    expect(proxy.taskCount).toBe(0);
    clock += 60_000;
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 0, accepted: 0 });
    expect(proxy.callsOf('createVideo')).toHaveLength(1);
  });

  it('an asset not ready for the model (409 asset_not_ready) is shown as a failure naming the element', async () => {
    proxy.failNext('createVideo', { kind: 'video-error', status: 409, code: 'asset_not_ready', message: 'asset asset-1 is Processing for the model; retry when it is Active.', param: 'content[1].image_url' });
    const { record } = await submitTask(client, body, now);
    expect(record).toMatchObject({ status: 'failed', error: { code: 'asset_not_ready', message: 'content[1].image_url: asset asset-1 is Processing for the model; retry when it is Active.' } });
  });

  it('a refused token: the first attempt created nothing and fails; a repeat waits for reconnect', async () => {
    proxy.tokens.clear();
    const error = await submitTask(client, body, now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).failure.kind).toBe('unauthorized');
    expect((await allTasks())[0]).toMatchObject({ status: 'failed', error: { code: 'unauthorized' } });

    await resetState();
    proxy = new VideoFakeProxy();
    client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
    proxy.failNext('createVideo', { kind: 'timeout-after-commit' });
    await submitTask(client, body, now);
    proxy.tokens.clear();
    clock += 60_000;
    await expect(resumeSubmissions(client, now)).rejects.toMatchObject({ failure: { kind: 'unauthorized' } });
    expect((await allTasks())[0]!.status).toBe('submitting');
  });

  it('a failing service is asked again a few times, then the task is shown failed', async () => {
    proxy.failNext('createVideo', { kind: 'video-error', status: 503, code: 'model_unavailable', message: 'The model is unavailable right now.' }, MAX_SERVICE_ATTEMPTS);
    const first = await submitTask(client, body, now);
    expect(first.record).toMatchObject({ status: 'submitting', attempts: 1, notice: 'The model is unavailable right now.' });
    for (let i = 1; i < MAX_SERVICE_ATTEMPTS; i++) {
      clock += 10 * 60_000;
      await resumeSubmissions(client, now);
    }
    expect(proxy.callsOf('createVideo')).toHaveLength(MAX_SERVICE_ATTEMPTS);
    expect((await allTasks())[0]).toMatchObject({ status: 'failed', error: { code: 'model_unavailable' } });
  });

  it('rate-limited: waits for Retry-After before asking again', async () => {
    proxy.failNext('createVideo', { kind: 'video-error', status: 429, code: 'rate_limited', message: 'Slow down.', retryAfter: '30' });
    const first = await submitTask(client, body, now);
    expect(first.record).toMatchObject({ status: 'submitting', retryAt: clock + 30_000 });
    clock += 20_000;
    expect((await resumeSubmissions(client, now)).sent).toBe(0);
    clock += 11_000;
    expect(await resumeSubmissions(client, now)).toEqual({ sent: 1, accepted: 1 });
  });

  it('gives up without sending once the proxy may have forgotten the key', async () => {
    proxy.failNext('createVideo', { kind: 'network' });
    await submitTask(client, body, now);
    clock += GIVE_UP_AFTER_MS + 1;
    expect((await resumeSubmissions(client, now)).sent).toBe(0);
    expect(proxy.callsOf('createVideo')).toHaveLength(1);
    expect((await allTasks())[0]).toMatchObject({ status: 'failed', error: { code: 'submit_unconfirmed' } });
  });

  it('a record another page settled meanwhile is not overwritten', async () => {
    proxy.failNext('createVideo', { kind: 'timeout-after-commit' });
    const first = await submitTask(client, body, now);
    // The background got the answer first and stored the task.
    const database = await db();
    await database.put('tasks', { ...first.record, taskId: 'cgt-1', status: 'in_progress', progress: 50 });
    clock += 60_000;
    expect((await resumeSubmissions(client, now)).sent).toBe(0);
    expect((await allTasks())[0]).toMatchObject({ status: 'in_progress', progress: 50 });
  });
});

describe('submitAgain', () => {
  it('creates a new task from the same request with a new key, leaving the failed one as it was', async () => {
    const failed: TaskRecord = { localId: 'old', taskId: 'cgt-old', model: body.model, body, status: 'failed', progress: 10, idempotencyKey: 'old-key', error: { code: 'InvalidParameter', message: 'content[1].image_url: download failed' }, notified: true, createdAt: 1 };
    await (await db()).put('tasks', failed);
    const { record } = await submitAgain(client, failed, now);
    expect(record).toMatchObject({ status: 'queued', taskId: 'cgt-1', body });
    expect(record.idempotencyKey).not.toBe('old-key');
    expect(record.localId).not.toBe('old');
    expect(proxy.callsOf('createVideo').map((c) => c.idempotencyKey)).toEqual([record.idempotencyKey]);
    expect(await (await db()).get('tasks', 'old')).toEqual(failed);
  });
});
