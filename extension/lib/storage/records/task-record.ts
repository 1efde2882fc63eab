import type { TaskStatus, VideoCreateBody } from '@@/shared';

/** The `tasks` store's record. Types only, importing nothing from the extension (no import cycles). */

/** `submitting`: recorded locally, the create request not yet answered. */
export type LocalTaskStatus = TaskStatus | 'submitting';

/** What the proxy said the task costs (its `arkbridge` answer object), in the price table's currency. */
export interface TaskCost {
  cost: number;
  currency: string;
  /** false: the model has no price (cost 0), shown as unpriced. */
  priced: boolean;
}

export interface TaskRecord {
  localId: string;
  taskId?: string;
  model: string;
  body: VideoCreateBody;
  status: LocalTaskStatus;
  progress: number;
  idempotencyKey: string;
  videoUrl?: string;
  error?: { code: string; message: string };
  notified: boolean;
  createdAt: number;
  completedAt?: number;
  /** The cost the proxy's last answer carried (none from a proxy without budgets). Not indexed: no schema change. */
  cost?: TaskCost;
  /** The proxy stopped following the task (older than 7 days). */
  tracking?: 'expired';
  /** While `submitting`: creates sent so far, when to send again, and what to tell the member. */
  attempts?: number;
  retryAt?: number;
  notice?: string;
}
