import { ProxyClient } from '../api/client';
import { ApiError } from '../api/errors';
import { getConnection, markNeedsReconnect } from '../connection';
import { announceChange } from '../db';
import { t } from '../i18n';

/** A refused or failed library action: a message for a Banner, or for one form field. */
export interface ActionProblem<F extends string = string> {
  /** The form field the message is about (shown inline), when there is one. */
  field?: F;
  message: string;
  /** The member must reconnect (the token was refused). */
  reconnect?: boolean;
}

export type ActionResult<T, F extends string = string> = { ok: true; value: T } | { ok: false; problem: ActionProblem<F> };

/** A client for the stored connection, or null when not connected (or the token was refused). */
export async function libraryClient(): Promise<ProxyClient | null> {
  const connection = await getConnection();
  return connection && !connection.needsReconnect ? new ProxyClient(connection) : null;
}

export const notConnected = (): ActionProblem => ({ message: t('library.error.notConnected'), reconnect: true });

/**
 * Turns a failed call into what the member reads. A refused token is recorded at once (the whole
 * popup then asks to reconnect); `fields` maps the service's parameter names to form fields so
 * that a field-level refusal shows next to its control.
 */
export async function explain<F extends string>(error: unknown, fields: Partial<Record<string, F>> = {}, labels: Partial<Record<F, string>> = {}): Promise<ActionProblem<F>> {
  if (!(error instanceof ApiError)) return { message: t('library.error.unexpected', { message: error instanceof Error ? error.message : String(error) }) };
  const failure = error.failure;
  switch (failure.kind) {
    case 'unauthorized':
      await markNeedsReconnect();
      announceChange('settings');
      return { message: t('library.error.unauthorized'), reconnect: true };
    case 'network':
      return { message: t('library.error.network') };
    case 'rate_limited':
      return { message: t('library.error.rateLimited', { seconds: Math.max(1, Math.ceil(failure.retryAfterMs / 1000)) }) };
    case 'rejected': {
      const field = failure.field ? fields[failure.field] : undefined;
      if (field) {
        const reason = failure.message.startsWith(`${failure.field}: `) ? failure.message.slice(failure.field!.length + 2) : failure.message;
        return { field, message: `${labels[field] ?? failure.field}: ${reason}` };
      }
      if (failure.code === 'AccessDenied') return { message: t('library.error.accessDenied') };
      return { message: failure.message };
    }
    default:
      return { message: t('library.error.retry', { message: failure.message }) };
  }
}

/** The request was refused because the item no longer exists (or is not the member's). */
export const isGone = (error: unknown): boolean =>
  error instanceof ApiError && error.failure.kind === 'rejected' && (error.failure.code === 'AccessDenied' || error.failure.status === 404);
