import { useEffect, useRef, useState } from 'preact/hooks';
import type { QuoteAnswer, VideoCreateBody } from '@@/shared';
import { type ApiFailure, ApiError } from '@/lib/proxy/api-failure';

/**
 * The quote of the Generate form (`POST /proxy/quote`) while the member edits it: asked once the
 * form is valid and has not changed for QUOTE_DEBOUNCE_MS, never twice at once for the same body,
 * and shown only for the body it was asked for (an answer for a body since edited away is kept
 * for when the form comes back to it, never shown for another). A proxy without quotes (404) is
 * asked once; a failed quote (network, 5xx) shows nothing and blocks nothing.
 */

export type QuoteRefusal = Extract<ApiFailure, { kind: 'rejected' }>;

export type QuoteView =
  /** Nothing to show: the form is not valid yet, the proxy has no quotes, or the quote failed. */
  | { state: 'none' }
  /** Being asked for the form as it is; `previous`: the last quote shown, for another body. */
  | { state: 'pending'; previous: QuoteAnswer | null }
  | { state: 'quoted'; answer: QuoteAnswer }
  /** The proxy refused the body as the create would (400 with the field, 403 `model_not_allowed`). */
  | { state: 'refused'; failure: QuoteRefusal };

/** The form is quoted this long after its last change. */
export const QUOTE_DEBOUNCE_MS = 300;
/** A quote this old is asked again rather than shown from memory (other tasks use the budgets too). */
export const QUOTE_FRESH_MS = 30_000;
/** Bodies whose outcome is remembered (going back and forth between two durations asks once each). */
const REMEMBERED = 8;

/**
 * Asks the proxy for a quote; null: the proxy has no quotes (404). Throws an ApiError otherwise.
 * `B`: what is quoted, a create body (the Generate form), or several (the studio's batch, summed).
 */
export type QuoteFn<B = VideoCreateBody> = (body: B, signal: AbortSignal) => Promise<QuoteAnswer | null>;

type Outcome = Extract<QuoteView, { state: 'quoted' | 'refused' }>;

export class FormQuoter<B = VideoCreateBody> {
  #body: B | null = null;
  #key: string | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inflight: { key: string; controller: AbortController } | null = null;
  #known = new Map<string, { outcome: Outcome; at: number }>();
  #unsupported = false;
  #disposed = false;
  #shown: QuoteAnswer | null = null;

  constructor(
    private readonly quote: QuoteFn<B>,
    private readonly onView: (view: QuoteView) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The form changed: its create body when the form is valid, else null (nothing to quote). */
  update(body: B | null): void {
    const key = body ? JSON.stringify(body) : null;
    if (key === this.#key || this.#disposed) return;
    this.#body = body;
    this.#key = key;
    this.#schedule();
  }

  /** The budgets changed (a task was created): what was known is asked again. */
  refresh(): void {
    this.#known.clear();
    if (!this.#disposed) this.#schedule();
  }

  /** The form is gone: nothing more is asked or shown. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#inflight?.controller.abort();
    this.#inflight = null;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    const { key, body } = { key: this.#key, body: this.#body };
    if (key === null || body === null || this.#unsupported) return this.#show({ state: 'none' });
    const known = this.#known.get(key);
    if (known && this.now() - known.at < QUOTE_FRESH_MS) return this.#show(known.outcome);
    this.#show({ state: 'pending', previous: this.#shown });
    this.#timer = setTimeout(() => void this.#ask(key, body), QUOTE_DEBOUNCE_MS);
  }

  async #ask(key: string, body: B): Promise<void> {
    // Already asked for this very body: its answer is shown when it comes.
    if (this.#inflight?.key === key) return;
    this.#inflight?.controller.abort();
    const controller = new AbortController();
    this.#inflight = { key, controller };
    let outcome: Outcome | null = null;
    try {
      const answer = await this.quote(body, controller.signal);
      if (answer === null) this.#unsupported = true;
      else outcome = { state: 'quoted', answer };
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof ApiError ? error.failure : null;
      // A refusal of the body itself; a budget refusal or anything passing is no fault of the form.
      if (failure?.kind === 'rejected' && !failure.refusal) outcome = { state: 'refused', failure };
    } finally {
      if (this.#inflight?.controller === controller) this.#inflight = null;
    }
    if (this.#disposed) return;
    if (outcome) this.#remember(key, outcome);
    // An answer for a body the member has since edited away is not theirs to see now.
    if (key === this.#key) this.#show(outcome ?? { state: 'none' });
  }

  #remember(key: string, outcome: Outcome): void {
    this.#known.delete(key);
    this.#known.set(key, { outcome, at: this.now() });
    if (this.#known.size > REMEMBERED) this.#known.delete(this.#known.keys().next().value!);
  }

  #show(view: QuoteView): void {
    if (view.state === 'quoted') this.#shown = view.answer;
    else if (view.state !== 'pending') this.#shown = null;
    this.onView(view);
  }
}

/**
 * The quote of `body` (null while the form is not valid) for a view, with `refresh` to ask again
 * after a create changed the budgets.
 */
export function useFormQuote<B = VideoCreateBody>(body: B | null, quote: QuoteFn<B>): { view: QuoteView; refresh: () => void } {
  const [view, setView] = useState<QuoteView>({ state: 'none' });
  const quoter = useRef<FormQuoter<B> | null>(null);
  quoter.current ??= new FormQuoter<B>(quote, setView);
  useEffect(() => () => quoter.current?.dispose(), []);
  useEffect(() => quoter.current!.update(body));
  return { view, refresh: () => quoter.current!.refresh() };
}
