import * as v from 'valibot';
import { arkbridgeFieldSchema } from './arkbridge-field';

/**
 * The gateway's queue of creates that could not start at once (the team's cap of tasks running at
 * the service was reached, or the service answered 429/503), docs/queue.md. The proxy writes these
 * answers; the extension and scripts read them with these schemas (unknown fields ignored, so a
 * later proxy may add some).
 */

/** `abq_` and 24 lowercase letters or digits: validated before any lookup. */
export const QUEUE_ID_PATTERN = /^abq_[a-z0-9]{24}$/;
export const queueIdSchema = v.pipe(v.string(), v.maxLength(28), v.regex(QUEUE_ID_PATTERN, 'must be a queue id (abq_ and 24 letters or digits)'));

export const QUEUE_STATUSES = ['queued', 'launched', 'failed', 'cancelled'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** The request header a client sends to be queued rather than refused when the service is busy (RFC 7240). */
export const PREFER_RESPOND_ASYNC = 'respond-async';

/** The service's error, as it answered the launch (`failed`). */
const queueErrorSchema = v.object({
  code: v.pipe(v.string(), v.maxLength(200)),
  message: v.pipe(v.string(), v.maxLength(2000)),
});

/** One queued create as `GET /proxy/queue`, `GET /proxy/queue/:id` and `GET /admin/queue` show it. */
export const queueItemSchema = v.object({
  id: queueIdSchema,
  status: v.picklist(QUEUE_STATUSES),
  /** 1-based: how many of the team's queued creates launch before this one, counting it; null once it left the queue. */
  position: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  model: v.pipe(v.string(), v.maxLength(200)),
  /** Unix seconds. */
  createdAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The service's task id, once launched. */
  taskId: v.nullable(v.pipe(v.string(), v.maxLength(200))),
  error: v.nullable(queueErrorSchema),
  /** Only in `GET /admin/queue`: whose create it is. */
  memberId: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export type QueueItem = v.InferOutput<typeof queueItemSchema>;

export const queueListSchema = v.object({ items: v.pipe(v.array(queueItemSchema), v.maxLength(10_000)) });
export type QueueList = v.InferOutput<typeof queueListSchema>;

/**
 * The 202 answer to a create sent with `Prefer: respond-async` that could not start now. `arkbridge`
 * carries what the create reserved, as on a task answer.
 */
export const queuedCreateSchema = v.object({
  id: queueIdSchema,
  object: v.literal('queued_create'),
  status: v.picklist(QUEUE_STATUSES),
  position: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  arkbridge: v.optional(arkbridgeFieldSchema),
});
export type QueuedCreate = v.InferOutput<typeof queuedCreateSchema>;

/**
 * `GET /admin/queue`: everyone's items, with the queue's settings in force: the team's cap at the
 * service (`UPSTREAM_MAX_RUNNING`, 0: none), the tasks running there now, and until when the team
 * backs off after the service answered busy (ISO time, null: not backing off).
 */
export const teamQueueSchema = v.object({
  ...queueListSchema.entries,
  cap: v.pipe(v.number(), v.integer(), v.minValue(0)),
  running: v.pipe(v.number(), v.integer(), v.minValue(0)),
  backoffUntil: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
});
export type TeamQueueState = v.InferOutput<typeof teamQueueSchema>;
