/** Video tasks and errors of the `/v1` interface. */

export const TASK_STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'unknown'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface VideoTask {
  id: string;
  task_id: string;
  object: 'video';
  model: string;
  status: TaskStatus;
  progress: number;
  created_at: number;
  completed_at?: number;
  metadata?: { url: string; last_frame_url?: string };
  error?: { code: string; message: string };
  /** On a completed task only: output tokens, width x height x frames / 1024 (shared/catalog/output-size.ts). */
  usage?: { completion_tokens: number };
}

/** Statuses after which a task never changes again. */
export const isFinished = (status: TaskStatus): boolean => status === 'completed' || status === 'failed';

/** The error object of a request the service (or the proxy) did not accept. */
export interface VideoApiError {
  error: { code: string; message: string; type: string; param?: string };
}

export const VIDEO_ERROR_CODES = [
  'invalid_parameter',
  'unauthorized',
  'task_not_found',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'asset_not_ready',
  'rate_limited',
  'internal_error',
  'model_unavailable',
  'upstream_timeout',
] as const;
export type VideoErrorCode = (typeof VIDEO_ERROR_CODES)[number];

export const videoError = (code: VideoErrorCode | string, message: string, type: string, param?: string): VideoApiError => ({
  error: param === undefined ? { code, message, type } : { code, message, type, param },
});

export const invalidParameter = (param: string, message: string): VideoApiError =>
  videoError('invalid_parameter', message, 'invalid_request_error', param);

export interface ModelList {
  object?: 'list';
  data: { id: string; object?: string; owned_by?: string; created?: number }[];
}
