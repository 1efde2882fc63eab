import type { TaskStatus, VideoCreateBody } from '@@/shared';

/** The `tasks` store's record. Types only, importing nothing from the extension (no import cycles). */

/** `submitting`: recorded locally, the create request not yet answered. */
export type LocalTaskStatus = TaskStatus | 'submitting';

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
  /** While `submitting`: creates sent so far, when to send again, and what to tell the member. */
  attempts?: number;
  retryAt?: number;
  notice?: string;
}
