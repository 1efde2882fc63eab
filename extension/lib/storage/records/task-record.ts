import type { KeepState, TaskStatus, VideoCreateBody } from '@@/shared';

/** The `tasks` store's record. Types only, importing nothing from the extension (no import cycles). */

/**
 * `submitting`: recorded locally, the create request not yet answered. `waiting`: the proxy queued
 * the create because the service is busy (a 202 to `Prefer: respond-async`), it has no task id yet;
 * `cancelled`: the member took it out of that queue before it launched.
 */
export type LocalTaskStatus = TaskStatus | 'submitting' | 'waiting' | 'cancelled';

/**
 * Statuses of a task that may still change: followed by the background, counted on the badge, a
 * running take in the studio. The one list of them.
 */
export const OPEN_TASK_STATUSES = ['submitting', 'waiting', 'queued', 'in_progress', 'unknown'] as const satisfies readonly LocalTaskStatus[];

/** What the proxy said the task costs (its `arkbridge` answer object), in the price table's currency. */
export interface TaskCost {
  cost: number;
  currency: string;
  /** false: the model has no price (cost 0), shown as unpriced. */
  priced: boolean;
}

/**
 * The proxy's copy of a completed video (its `arkbridge` answer object): kept for KEEP_OUTPUTS_DAYS,
 * where the service's own link dies about 24 hours after completion. Either a copy (`keptUrl` and
 * `keptUntil`), or `keep` saying why there is none (yet). Plain fields: no index, no schema change.
 */
export interface KeptCopy {
  /** A signed address of the copy, valid up to a day from when it was read (`keptReadAt`). */
  keptUrl?: string;
  /** Unix seconds: the copy is kept until then. */
  keptUntil?: number;
  /** `pending`: being made; `failed`: could not be made (`keepError` says why); `deleted`: removed. */
  keep?: KeepState;
  keepError?: string;
  /**
   * A signed address of the proxy's copy of the video's last frame (`arkbridge.keptLastFrameUrl`), for a
   * task created with `return_last_frame`: the studio starts the next shot from it.
   */
  keptLastFrameUrl?: string;
}

export interface TaskRecord extends KeptCopy {
  localId: string;
  taskId?: string;
  model: string;
  body: VideoCreateBody;
  status: LocalTaskStatus;
  progress: number;
  idempotencyKey: string;
  videoUrl?: string;
  /** The service's own address of the last frame (`metadata.last_frame_url`, a create with `return_last_frame`); expires with the video's. */
  lastFrameUrl?: string;
  error?: { code: string; message: string };
  notified: boolean;
  createdAt: number;
  completedAt?: number;
  /** The cost the proxy's last answer carried (none from a proxy without budgets). Not indexed: no schema change. */
  cost?: TaskCost;
  /** The proxy stopped following the task (older than 7 days). */
  tracking?: 'expired';
  /** When the kept copy's state was last read from the proxy (ms): a completed task is read again when it gets old. */
  keptReadAt?: number;
  /** When the member published the video to the team gallery (ISO 8601, the proxy's `publishedAt`). */
  publishedAt?: string;
  /** While `waiting`: the proxy's queue item (`abq_...`) and its place in line (1-based, null when the proxy did not say). */
  queueId?: string;
  queuePosition?: number | null;
  /** While `submitting`: creates sent so far, when to send again, and what to tell the member. */
  attempts?: number;
  retryAt?: number;
  notice?: string;
}
