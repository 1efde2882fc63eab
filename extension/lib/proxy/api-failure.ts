import { type BudgetRefusal, budgetRefusalFrom } from '@/lib/proxy/budget-refusal';

/** Why a call to the proxy did not succeed, in the terms the extension acts on. */
export type ApiFailure =
  /** The token is missing, wrong or revoked: ask the member to reconnect. */
  | { kind: 'unauthorized'; message: string }
  /** 429: wait `retryAfterMs`, never hammer. */
  | { kind: 'rate_limited'; message: string; retryAfterMs: number }
  /** The proxy could not be reached (offline, DNS, no host permission): queue and resume. */
  | { kind: 'network'; message: string }
  /** The service did not answer in time; retry with the same Idempotency-Key. */
  | { kind: 'timeout'; message: string }
  /** A create with this key is still running: retry shortly with the same key. */
  | { kind: 'in_progress'; message: string }
  /**
   * The request was refused (validation, access, not ready...): show the message, do not retry as
   * is. `refusal`: refused for the team's budgets (a 402, or a 429 for too many running tasks).
   */
  | { kind: 'rejected'; status: number; code: string; message: string; field?: string; refusal?: BudgetRefusal }
  /** The service failed (5xx): retry later. */
  | { kind: 'service'; status: number; code: string; message: string };

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiError';
  }
}

/** Whether trying the same request again later may succeed. */
export const isTransient = (f: ApiFailure): boolean =>
  f.kind === 'network' || f.kind === 'rate_limited' || f.kind === 'timeout' || f.kind === 'in_progress' || f.kind === 'service';

const DEFAULT_RETRY_MS = 30_000;

/** Retry-After as milliseconds (seconds or an HTTP date), with a sane default. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return DEFAULT_RETRY_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? DEFAULT_RETRY_MS : Math.max(0, date - now);
}

interface ErrorBody {
  ResponseMetadata?: { Error?: { Code: string; Message: string } };
  error?: { code?: string; message?: string; param?: string; [detail: string]: unknown };
}

/** Classifies an unsuccessful HTTP answer of the proxy. */
export function failureFrom(status: number, body: ErrorBody | null, retryAfter: string | null): ApiFailure {
  const code = body?.ResponseMetadata?.Error?.Code ?? body?.error?.code ?? `http_${status}`;
  const message = body?.ResponseMetadata?.Error?.Message ?? body?.error?.message ?? `The proxy answered HTTP ${status}.`;
  if (status === 401) return { kind: 'unauthorized', message: 'The proxy did not accept your member token. Reconnect in the options.' };
  // Before the 429 rule: too many running tasks is no request to slow down, waiting alone does not end it.
  const refusal = budgetRefusalFrom(body?.error);
  if (refusal) return { kind: 'rejected', status, code, message, refusal };
  if (status === 429) return { kind: 'rate_limited', message, retryAfterMs: retryAfterMs(retryAfter) };
  if (status === 504) return { kind: 'timeout', message };
  if (status === 409 && /in_?progress/i.test(code)) return { kind: 'in_progress', message };
  if (status >= 500) return { kind: 'service', status, code, message };
  const field = body?.error?.param ?? /^([\w.[\]-]+):/.exec(message)?.[1];
  return field ? { kind: 'rejected', status, code, message, field } : { kind: 'rejected', status, code, message };
}

/**
 * The request was refused because what it names no longer exists, or is not the member's (the
 * proxy answers both alike): 403 AccessDenied or 404. Such an item will never come back.
 */
export const isGone = (error: unknown): boolean =>
  error instanceof ApiError && error.failure.kind === 'rejected' && (error.failure.code === 'AccessDenied' || error.failure.status === 404);
