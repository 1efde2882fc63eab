import { clip, completionTokens, createOutputSize, isKnownModel, modelSpec, videoError, invalidParameter, type Reference, type VideoApiError, type VideoCreateBody, type VideoTask } from '../../../shared';
import { ownAsset, readinessOf } from './assets';
import { upgradeSchema } from './service-schema';
import { rows, type Ctx } from './state-context';
import { dataUriProblem } from './media-download';
import { runningLimitRefusal } from './running-limit';
import { randomHex } from '../../../shared';

export interface TaskRow {
  id: string;
  account: string;
  model: string;
  refs: string;
  download: 'pending' | 'ok' | 'failed';
  error: string;
  created_at: number;
  refs_done_at: number | null;
  /** Output tokens of the finished video, fixed at the create; null on a task stored before the column. */
  completion_tokens: number | null;
  /** Seconds of the video served; null on a task stored before the column (the 2 s fixture). */
  video_seconds: number | null;
  /** 1 when the create asked `return_last_frame`. */
  last_frame: number;
  /** '<width>x<height>' of the video served; null on a task stored before the column (320x180). */
  video_size: string | null;
}

/** A reference the sandbox still has to fetch before the task can succeed. */
export interface PendingRef {
  param: string;
  kind: Reference['kind'];
  /** The URL to download; for an inline `data:` image only `data:` (the image is checked at once). */
  url: string;
  /** For an inline image: why it is unusable (it ends the task `failed` as a download would). */
  problem?: string;
}

export type TaskOutcome = { ok: true; task: VideoTask } | { ok: false; status: number; body: VideoApiError; retryAfter?: number };

const KIND_TO_TYPE = { image: 'Image', video: 'Video', audio: 'Audio' } as const;
const reject = (status: number, body: VideoApiError): TaskOutcome => ({ ok: false, status, body });

/**
 * Storage whose tasks table has been brought up to the schema (`upgradeSchema`, service-schema.ts):
 * `CREATE TABLE IF NOT EXISTS` at start leaves a table persisted by an older sandbox as it was, so
 * its added columns are checked here, once per storage, before a task is read or written.
 */
const upgraded = new WeakSet<SqlStorage>();
function upgradeOnce(sql: SqlStorage): void {
  if (upgraded.has(sql)) return;
  upgradeSchema(sql);
  upgraded.add(sql);
}

function taskId(now: number): string {
  const stamp = new Date(now).toISOString().replace(/\D/g, '').slice(0, 14);
  return `cgt-${stamp}-${randomHex(6)}`;
}

/** Accepts a validated create body: library references must be the caller's and ready for the model. */
export function createTask(ctx: Ctx, account: string, body: VideoCreateBody, references: Reference[]): TaskOutcome {
  if (!isKnownModel(body.model)) {
    return reject(400, invalidParameter('model', `model: ${clip(body.model)} is not available to this key; see GET /v1/models.`));
  }
  const pending: PendingRef[] = [];
  for (const ref of references) {
    if (!ref.assetId) {
      // An inline image is checked now and not stored: a storage row holds at most 2 MB, and a
      // data URI may be 10 MB. Only an unusable one is kept, with its reason, to fail the task.
      if (ref.url.startsWith('data:')) {
        const problem = dataUriProblem(ref.url);
        if (problem) pending.push({ param: ref.param, kind: ref.kind, url: 'data:', problem });
      } else pending.push({ param: ref.param, kind: ref.kind, url: ref.url });
      continue;
    }
    const asset = ownAsset(ctx, account, ref.assetId);
    if (!asset) return reject(400, invalidParameter(ref.param, `${ref.param}: asset ${clip(ref.assetId)} does not exist or is not yours.`));
    if (asset.type !== KIND_TO_TYPE[ref.kind]) {
      return reject(400, invalidParameter(ref.param, `${ref.param}: asset ${clip(ref.assetId)} is ${asset.type}, not ${KIND_TO_TYPE[ref.kind]}.`));
    }
    const readiness = readinessOf(asset, ctx.now, body.model);
    if (readiness === 'Failed' || readiness === 'Unavailable') {
      // Never going to be usable with this model: not a retryable condition.
      return reject(400, invalidParameter(ref.param, `${ref.param}: asset ${clip(ref.assetId)} is ${readiness} for ${body.model} and cannot be used with it.`));
    }
    if (readiness !== 'Active') {
      return reject(409, videoError('asset_not_ready', `${ref.param}: asset ${clip(ref.assetId)} is ${readiness} for ${body.model}; retry when it is Active.`, 'invalid_request_error', ref.param));
    }
  }
  // Last of the checks, as the service counts only creates it would accept.
  const busy = runningLimitRefusal(ctx, account);
  if (busy) return { ok: false, status: 429, body: busy.body, retryAfter: busy.retryAfter };
  const id = taskId(ctx.now);
  // The tokens the service will report once the video is made, from its size and length (for
  // -1, the length the sandbox picks: a reservation counts the longest, the charge what was made).
  const duration = body.duration === -1 ? MODEL_PICK_SECONDS : body.duration;
  const tokens = completionTokens({ model: body.model, resolution: body.resolution, ratio: body.ratio, duration, frames: body.frames });
  // The video is made at the size asked (the catalog's table), as the service makes it.
  const size = createOutputSize(body);
  upgradeOnce(ctx.sql);
  ctx.sql.exec(
    'INSERT INTO tasks (id, account, model, refs, download, created_at, refs_done_at, completion_tokens, video_seconds, last_frame, video_size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    id, account, body.model, JSON.stringify(pending), pending.length ? 'pending' : 'ok', ctx.now, pending.length ? null : ctx.now, tokens,
    videoSeconds(body), body.return_last_frame === true ? 1 : 0, size ? `${size.width}x${size.height}` : null,
  );
  return { ok: true, task: taskView(ctx, ownTask(ctx, account, id)!) };
}

export function ownTask(ctx: Ctx, account: string, id: string): TaskRow | undefined {
  upgradeOnce(ctx.sql);
  return rows<TaskRow>(ctx.sql, 'SELECT * FROM tasks WHERE id = ? AND account = ?', id, account)[0];
}

export const videoUrl = (origin: string, id: string) => `${origin}/sandbox/videos/${id}.mp4`;
export const lastFrameUrl = (origin: string, id: string) => `${origin}/sandbox/frames/${id}.png`;

/** What `duration: -1` (the model picks) makes in the sandbox. */
export const MODEL_PICK_SECONDS = 5;

/**
 * How long the task's video lasts: the create's `duration`, else its `frames` at 24 per second,
 * else the model's default (the create checks have refused what the model does not take).
 */
export function videoSeconds(body: Pick<VideoCreateBody, 'model' | 'duration' | 'frames'>): number {
  if (body.duration === -1) return MODEL_PICK_SECONDS;
  if (body.duration !== undefined) return body.duration;
  if (body.frames !== undefined) return body.frames / 24;
  return modelSpec(body.model).defaults?.duration ?? MODEL_PICK_SECONDS;
}

/** A completed task's output as the media routes serve it; null while there is none to serve. */
export interface TaskOutput {
  expired: boolean;
  /** Null on a task stored before lengths were kept: it serves the 2 s fixture. */
  seconds: number | null;
  lastFrame: boolean;
  /** '<width>x<height>'; null on a task stored before sizes were kept: it serves the 320x180 fixture. */
  size: string | null;
}

export function taskOutput(ctx: Ctx, id: string): TaskOutput | null {
  upgradeOnce(ctx.sql);
  const row = rows<TaskRow>(ctx.sql, 'SELECT * FROM tasks WHERE id = ?', id)[0];
  if (!row) return null;
  const task = taskView(ctx, row);
  if (task.status !== 'completed') return null;
  // The service's links die 24 hours after completion.
  const expired = ctx.now - task.completed_at! * 1000 > 24 * 3600 * 1000;
  return { expired, seconds: row.video_seconds, lastFrame: row.last_frame === 1, size: row.video_size };
}

/**
 * The task as the service reports it now: queued while its references download and for the
 * first moments, then in_progress with rising progress, then completed (or failed). Only a
 * completed task carries `usage`; one stored before its tokens were kept counts the model's defaults.
 */
export function taskView(ctx: Ctx, row: TaskRow): VideoTask {
  const base = { id: row.id, task_id: row.id, object: 'video' as const, model: row.model, created_at: Math.floor(row.created_at / 1000) };
  const total = ctx.timing.videoSeconds * 1000;
  const elapsed = ctx.now - row.created_at;
  if (row.download === 'failed') {
    const at = row.refs_done_at ?? row.created_at;
    return { ...base, status: 'failed', progress: 0, completed_at: Math.floor(at / 1000), error: { code: 'InvalidParameter', message: row.error } };
  }
  const queuedFor = Math.min(2000, total * 0.15);
  if (row.download === 'pending' || elapsed < queuedFor) return { ...base, status: 'queued', progress: 0 };
  const finishAt = Math.max(row.created_at + total, row.refs_done_at ?? 0);
  if (ctx.now < finishAt) {
    const progress = Math.min(99, Math.max(1, Math.floor(((elapsed - queuedFor) / Math.max(1, total - queuedFor)) * 100)));
    return { ...base, status: 'in_progress', progress };
  }
  const usage = { completion_tokens: row.completion_tokens ?? completionTokens({ model: row.model }) };
  const metadata = row.last_frame === 1
    ? { url: videoUrl(ctx.origin, row.id), last_frame_url: lastFrameUrl(ctx.origin, row.id) }
    : { url: videoUrl(ctx.origin, row.id) };
  return { ...base, status: 'completed', progress: 100, completed_at: Math.floor(finishAt / 1000), metadata, usage };
}
