import type { VideoCreateBody } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { ApiError, type ApiFailure } from '@/lib/proxy/api-failure';
import { KEY_LIFETIME_MS, newIdempotencyKey } from '@/lib/proxy/idempotency-keys';
import { waitingRecord } from '@/lib/poll/queued-creates';
import { isQueuedCreate, type ProxyClient } from '@/lib/proxy/proxy-client';
import { annotated, annotationOf, type ProxiedVideoTask } from '@/lib/proxy/task-annotation';
import { newLocalId } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { announceChange } from '@/lib/storage/store-changes';
import { taskStore } from '@/lib/storage/task-store';
import '@/lib/i18n/tasks.en';

/**
 * Creating a video task so that nothing the member does (a timeout, closing the popup, the browser
 * stopping the service worker) makes a second task: the record and its Idempotency-Key are written
 * to IndexedDB before the request, and an unanswered create is repeated only with the same key
 * (the proxy answers a repeat with the original task).
 */

/**
 * A record on its way. `attempts`, `retryAt` and `notice` are kept on the stored record (IndexedDB
 * keeps any field): how often sending failed, when to send again, and why it has not gone yet.
 */
export type SubmittingTask = TaskRecord & { attempts?: number; retryAt?: number; notice?: string };

/** A `submitting` record younger than this is probably still being sent by the page that made it. */
export const RESUME_AFTER_MS = 5_000;
/** Past this age a repeat could reach a proxy that forgot the key, and create a second task (an hour's margin). */
export const GIVE_UP_AFTER_MS = KEY_LIFETIME_MS - 3600 * 1000;
/** A refusing service (5xx) is asked again this many times before the task is marked failed. */
export const MAX_SERVICE_ATTEMPTS = 6;
const MAX_BACKOFF_MS = 5 * 60_000;

export interface SubmitOutcome {
  /** The record as stored after this attempt. */
  record: SubmittingTask;
  /** Why the create did not go through now (the record says what happens next). */
  failure?: ApiFailure;
}

export interface SubmitOptions {
  /** The record's local id, chosen by the caller beforehand (the studio links its shot to it before the record exists). */
  localId?: string;
  /** A key the caller derived from what the create is (a storyboard run's launch), so that a restart sends the same one. */
  idempotencyKey?: string;
}

/** Creates the record (status `submitting`, a fresh Idempotency-Key), then sends the create. */
export async function submitTask(client: ProxyClient, body: VideoCreateBody, now: () => number = Date.now, options: SubmitOptions = {}): Promise<SubmitOutcome> {
  return sendRecorded(client, await recordSubmission(body, now, options), now);
}

/**
 * Writes the `submitting` record only (the first half of submitTask): a caller that must note the
 * launch elsewhere first (a storyboard run) sends it after; until then resumeSubmissions may.
 */
export async function recordSubmission(body: VideoCreateBody, now: () => number = Date.now, options: SubmitOptions = {}): Promise<SubmittingTask> {
  const record: SubmittingTask = {
    localId: options.localId ?? newLocalId(),
    idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    model: body.model,
    body,
    status: 'submitting',
    progress: 0,
    notified: false,
    createdAt: now(),
  };
  await taskStore.put(record);
  announceChange('tasks');
  return record;
}

/** Sends a record recordSubmission wrote, as its first attempt. */
export const sendRecorded = (client: ProxyClient, record: SubmittingTask, now: () => number = Date.now): Promise<SubmitOutcome> => send(client, record, true, now);

/** 'Submit again': the same request as a new task, with a new key (only when the member asks). */
export const submitAgain = (client: ProxyClient, task: TaskRecord, now: () => number = Date.now): Promise<SubmitOutcome> => submitTask(client, task.body, now);

/** Records this page is sending right now (never sent twice at once from here). */
const sending = new Set<string>();

export interface ResumeResult {
  /** Creates repeated. */
  sent: number;
  /** Records that got their task id, or their place in the proxy's queue. */
  accepted: number;
}

/**
 * Repeats the create of every `submitting` record older than a few seconds and due, with its
 * stored key: a create that reached the service answers with the original task, one that did not
 * is created now. The popup runs it while open; the background pass should too.
 * Throws an ApiError of kind `unauthorized` (reconnect needed); stops early when rate-limited.
 */
export async function resumeSubmissions(client: ProxyClient, now: () => number = Date.now): Promise<ResumeResult> {
  const records: SubmittingTask[] = await taskStore.withStatus('submitting');
  const result: ResumeResult = { sent: 0, accepted: 0 };
  for (const record of records.sort((a, b) => a.createdAt - b.createdAt)) {
    if (sending.has(record.localId)) continue;
    const at = now();
    if (at - record.createdAt < RESUME_AFTER_MS || (record.retryAt ?? 0) > at) continue;
    if (at - record.createdAt > GIVE_UP_AFTER_MS) {
      await settle(record, (r) => fail(r, 'submit_unconfirmed', t('tasks.error.unconfirmed')));
      continue;
    }
    result.sent++;
    const outcome = await send(client, record, false, now);
    if (outcome.record.taskId || outcome.record.queueId) result.accepted++;
    if (outcome.failure?.kind === 'rate_limited') break; // the proxy asked everyone to wait
  }
  return result;
}

async function send(client: ProxyClient, record: SubmittingTask, first: boolean, now: () => number): Promise<SubmitOutcome> {
  sending.add(record.localId);
  try {
    let answer: Awaited<ReturnType<ProxyClient['createVideo']>>;
    try {
      answer = await client.createVideo(record.body, record.idempotencyKey);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { record: await failed(record, error, first, now()), failure: error.failure };
    }
    // The service is busy and the proxy queued the create: the record waits for the service (queued-creates).
    return { record: await settle(record, (r) => (isQueuedCreate(answer) ? waitingRecord(r, answer, now()) : accepted(r, answer, now()))) };
  } finally {
    sending.delete(record.localId);
  }
}

function accepted(record: SubmittingTask, task: ProxiedVideoTask, at: number): SubmittingTask {
  const { attempts: _a, retryAt: _r, notice: _n, ...rest } = record;
  const next: SubmittingTask = {
    ...rest,
    taskId: task.id,
    status: task.status,
    progress: task.progress ?? 0,
    ...(task.metadata?.url ? { videoUrl: task.metadata.url } : {}),
    ...(task.metadata?.last_frame_url ? { lastFrameUrl: task.metadata.last_frame_url } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(task.completed_at ? { completedAt: task.completed_at * 1000 } : {}),
  };
  return annotated(next, annotationOf(task), at);
}

const fail = (record: SubmittingTask, code: string, message: string): SubmittingTask => {
  const { attempts: _a, retryAt: _r, notice: _n, ...rest } = record;
  return { ...rest, status: 'failed', error: { code, message } };
};

/** The service's message, naming the parameter it concerns (`content[2].image_url: …`). */
const withField = (f: { message: string; field?: string }) => (f.field && !f.message.includes(f.field) ? `${f.field}: ${f.message}` : f.message);

async function failed(record: SubmittingTask, error: ApiError, first: boolean, at: number): Promise<SubmittingTask> {
  const f = error.failure;
  switch (f.kind) {
    case 'rejected':
      // Refused before any task existed: the member reads why and decides. So is a refusal for the
      // budgets, a 429 for too many running tasks included: never sent again by itself.
      return settle(record, (r) => fail(r, f.code, withField(f)));
    case 'unauthorized':
      // A first attempt refused at the door created nothing; a repeat may follow an accepted create, so it waits for reconnect.
      if (first) await settle(record, (r) => fail(r, 'unauthorized', f.message));
      throw error;
    case 'rate_limited':
      return settle(record, (r) => ({ ...r, retryAt: at + f.retryAfterMs, notice: f.message }));
    case 'service': {
      // 5xx: the proxy kept nothing for the key, so no task exists; give up after a few tries.
      return settle(record, (r) => {
        const attempts = (r.attempts ?? 0) + 1;
        return attempts >= MAX_SERVICE_ATTEMPTS ? fail(r, f.code, f.message) : { ...r, attempts, retryAt: at + backoff(attempts), notice: f.message };
      });
    }
    case 'in_progress':
      // The first request is still running at the proxy: ask again shortly with the same key.
      return settle(record, (r) => ({ ...r, retryAt: at + RESUME_AFTER_MS, notice: f.message }));
    case 'network':
    case 'timeout': {
      // The task may exist: only the same key may ask again, for as long as the proxy remembers it.
      return settle(record, (r) => {
        const attempts = (r.attempts ?? 0) + 1;
        return { ...r, attempts, retryAt: at + backoff(attempts), notice: f.message };
      });
    }
  }
}

const backoff = (attempts: number) => Math.min(RESUME_AFTER_MS * 2 ** (attempts - 1), MAX_BACKOFF_MS);

/**
 * Applies `update` to the stored record if it is still `submitting` (another page may have settled
 * it meanwhile), in one transaction; answers the stored record.
 */
async function settle(record: SubmittingTask, update: (record: SubmittingTask) => SubmittingTask): Promise<SubmittingTask> {
  const stored = await taskStore.update(record.localId, (current) => (current.status === 'submitting' ? update(current) : undefined));
  announceChange('tasks');
  // Deleted meanwhile: answer what this attempt learnt.
  return stored ?? update(record);
}
