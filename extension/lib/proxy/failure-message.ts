import { formatAmount } from '@/lib/format/money-display';
import { type MessageKey, t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import type { BudgetRefusal } from '@/lib/proxy/budget-refusal';
import { handleUnauthorized } from '@/lib/proxy/connected-client';

/**
 * The one place a failed call to the proxy becomes what the member reads. Each page words the
 * kinds of failure in its own way (a table of message keys below); the rules are the same
 * everywhere: a refused token asks to reconnect, a refusal naming a form field is shown at that
 * field under the field's own label, a passing failure says to try again.
 */

/** What the member reads about a failed action: for a Banner, or for one form field. */
export interface Problem<F extends string = string> {
  /** The form field the message is about (shown inline), when there is one. */
  field?: F;
  message: string;
  /** The member must reconnect (not connected, or the token was refused). */
  reconnect?: boolean;
}

export type ActionResult<T, F extends string = string> = { ok: true; value: T } | { ok: false; problem: Problem<F> };

/** How a page words each kind of failure: keys of the message table. */
export interface Wording {
  /** Not a failed call but a bug or a storage error; `{message}`. */
  unexpected: MessageKey;
  unauthorized: MessageKey;
  /** The proxy could not be reached; `{url}`. */
  network: MessageKey;
  /** `{seconds}`. */
  rateLimited: MessageKey;
  /** A refusal because the item is not the member's (or gone); absent: the service's message. */
  accessDenied?: MessageKey;
  /** A 404 refusal; `{url}`; absent: the service's message. */
  notFound?: MessageKey;
  /** A failure worth trying again (timeout, still in progress, service error); `{message}`; absent: the service's message. */
  retry?: MessageKey;
}

/** The popup's views. */
export const POPUP_WORDING: Wording = {
  unexpected: 'proxy.error.unexpected',
  unauthorized: 'proxy.error.unauthorized',
  network: 'proxy.error.network',
  rateLimited: 'proxy.error.rateLimited',
  accessDenied: 'proxy.error.accessDenied',
  retry: 'proxy.error.retry',
};

/** The options page, testing an address and a token: every message names what to check. */
export const CONNECT_WORDING: Wording = {
  unexpected: 'options.error.unexpected',
  unauthorized: 'options.error.unauthorized',
  network: 'options.error.network',
  rateLimited: 'options.error.rateLimited',
  notFound: 'options.error.notAProxy',
};

export interface DescribeOptions<F extends string> {
  wording?: Wording;
  /** The proxy's address, for messages that name it. */
  proxyUrl?: string;
  /** The service's parameter names (`Name`) as form fields (`name`): such a refusal is shown at the field. */
  fields?: Partial<Record<string, F>>;
  /** The fields' labels as the form shows them (the message starts with the label). */
  labels?: Partial<Record<F, string>>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A failed call as the member reads it (records nothing; see problemOf). */
export function describeFailure<F extends string = string>(error: unknown, options: DescribeOptions<F> = {}): Problem<F> {
  const { wording = POPUP_WORDING, proxyUrl = '', fields = {}, labels = {} as Partial<Record<F, string>> } = options;
  if (!(error instanceof ApiError)) return { message: t(wording.unexpected, { message: error instanceof Error ? error.message : String(error) }) };
  const failure = error.failure;
  switch (failure.kind) {
    case 'unauthorized':
      return { message: t(wording.unauthorized), reconnect: true };
    case 'network':
      return { message: t(wording.network, { url: proxyUrl }) };
    case 'rate_limited':
      return { message: t(wording.rateLimited, { seconds: seconds(failure.retryAfterMs) }) };
    case 'rejected': {
      if (failure.refusal) return { message: refusalMessage(failure.refusal) };
      const field = failure.field ? fields[failure.field] : undefined;
      if (field) {
        // `Name: must be …` (the service's words) reads `Group name: must be …` (the form's).
        const own = `${failure.field}: `;
        const reason = failure.message.startsWith(own) ? failure.message.slice(own.length) : failure.message;
        return { field, message: `${labels[field] ?? failure.field}: ${reason}` };
      }
      if (failure.code === 'AccessDenied' && wording.accessDenied) return { message: t(wording.accessDenied) };
      if (failure.status === 404 && wording.notFound) return { message: t(wording.notFound, { url: proxyUrl }) };
      return { message: failure.message };
    }
    default:
      return { message: wording.retry ? t(wording.retry, { message: failure.message }) : failure.message };
  }
}

/**
 * A create refused for the budgets, with what to do: nothing was created; for the budget, ask the
 * team's admin (sending it again will not help before the budget is raised or a monthly budget
 * starts again); for running tasks, wait for one to finish and submit again.
 */
export function refusalMessage(refusal: BudgetRefusal): string {
  if (refusal.code === 'too_many_running_tasks') {
    const { running, maxRunning } = refusal;
    return running !== null && maxRunning !== null ? t('budget.busy', { running, max: maxRunning }) : t('budget.busyPlain');
  }
  const { remaining, cost, currency, scope } = refusal;
  return remaining !== null && cost !== null && currency !== null
    ? t(scope === 'team' ? 'budget.refused.team' : 'budget.refused.member', { remaining: formatAmount(Math.max(0, remaining), currency), cost: formatAmount(cost, currency) })
    : t(scope === 'team' ? 'budget.refused.teamPlain' : 'budget.refused.memberPlain');
}

/**
 * A failed call of the stored connection as the member reads it; a refused token is recorded
 * first (handleUnauthorized), so the whole extension asks to reconnect.
 */
export async function problemOf<F extends string = string>(error: unknown, options: DescribeOptions<F> = {}): Promise<Problem<F>> {
  await handleUnauthorized(error).catch(() => {});
  return describeFailure(error, options);
}

/** Nothing to call the proxy with: not connected, or the token was refused. */
export const notConnected = (): Problem<never> => ({ message: t('proxy.error.notConnected'), reconnect: true });
