import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuoteAnswer, VideoCreateBody } from '@@/shared';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { FormQuoter, QUOTE_DEBOUNCE_MS, type QuoteView } from '@/lib/generate/form-quote';
import { ProxyClient } from '@/lib/proxy/proxy-client';
import { quoteVideo } from '@/lib/proxy/quote-client';
import { FakeProxy, PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

/** A create body of `seconds` (the fake proxy quotes 1 CNY a second, so each body has its own quote). */
const body = (seconds: number): VideoCreateBody => ({ model: MODEL_IDS.s2, content: [{ type: 'text', text: 'A cat' }], duration: seconds });
const quoteOf = (b: { duration: number }): QuoteAnswer => ({ cost: b.duration, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining: 100, teamRemaining: null });

let proxy: FakeProxy;
let views: QuoteView[];
let quoter: FormQuoter;
const quotes = () => proxy.callsOf('/proxy/quote');
const last = () => views.at(-1)!;
/** Lets the quote calls under way settle (the fake's answers are promises, no timers). */
const settle = () => vi.advanceTimersByTimeAsync(0);

/** The fake proxy holds each quote's answer until the test releases it (all, or the one of that duration). */
function holdAnswers(): (duration?: number) => void {
  const held = new Map<number, () => void>();
  proxy.onQuote = (b: { duration: number }) => new Promise<void>((resolve) => held.set(b.duration, resolve));
  return (duration) => {
    for (const [d, release] of held) if (duration === undefined || d === duration) release();
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  proxy = new FakeProxy();
  proxy.quote = quoteOf;
  views = [];
  const client = new ProxyClient({ proxyUrl: PROXY_URL, token: TOKEN }, proxy.fetch);
  quoter = new FormQuoter((b, signal) => quoteVideo(client, b, signal), (view) => views.push(view));
});

afterEach(() => {
  quoter.dispose();
  vi.useRealTimers();
});

describe('the Generate form’s quote', () => {
  it('is asked once, QUOTE_DEBOUNCE_MS after the last change, for the form as it is then', async () => {
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS - 100);
    quoter.update(body(6));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS - 100);
    quoter.update(body(7));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS - 1);
    expect(quotes()).toHaveLength(0);
    expect(last()).toEqual({ state: 'pending', previous: null });

    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(quotes().map((c) => c.body.duration)).toEqual([7]);
    expect(last()).toEqual({ state: 'quoted', answer: quoteOf({ duration: 7 }) });
  });

  it('is never asked twice at once for the same body', async () => {
    const release = holdAnswers();
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    expect(quotes()).toHaveLength(1);
    // Away and back before the answer: the quote under way is the one awaited.
    quoter.update(body(6));
    await vi.advanceTimersByTimeAsync(100);
    quoter.update(body(5));
    // The same form again (a new object, equal): nothing new to ask.
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS * 3);
    expect(quotes()).toHaveLength(1);

    release();
    await settle();
    expect(last()).toEqual({ state: 'quoted', answer: quoteOf({ duration: 5 }) });
    // Known now: coming back to it shows it at once, without asking.
    quoter.update(body(9));
    quoter.update(body(5));
    expect(last()).toEqual({ state: 'quoted', answer: quoteOf({ duration: 5 }) });
    expect(quotes()).toHaveLength(1);
  });

  it('an answer for a body since edited away is never shown', async () => {
    const release = holdAnswers();
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    // The form became invalid while the quote was under way.
    quoter.update(null);
    release();
    await settle();
    expect(last()).toEqual({ state: 'none' });

    // And an older answer arriving after a newer one does not replace it.
    quoter.update(body(6));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    quoter.update(body(7));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    expect(quotes().map((c) => c.body.duration)).toEqual([5, 6, 7]);
    release(7);
    await settle();
    expect(last()).toEqual({ state: 'quoted', answer: quoteOf({ duration: 7 }) });
    release(6);
    await settle();
    expect(last()).toEqual({ state: 'quoted', answer: quoteOf({ duration: 7 }) });
    expect(views.filter((v) => v.state === 'quoted' && v.answer.cost !== 7)).toEqual([]);
  });

  it('a body the create would refuse is shown as refused, with the field', async () => {
    quoter.update({ ...body(5), resolution: '4k' as never });
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    expect(last()).toMatchObject({ state: 'refused', failure: { status: 400, field: 'resolution' } });
  });

  it('a failed quote shows nothing, and the next change asks again', async () => {
    proxy.failNext('/proxy/quote', { kind: 'status', status: 502 });
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    expect(last()).toEqual({ state: 'none' });
    quoter.update(body(6));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    expect(last()).toMatchObject({ state: 'quoted' });
    expect(quotes()).toHaveLength(2);
  });

  it('a proxy without quotes (404) is asked once, and nothing is shown', async () => {
    proxy.quote = null;
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    quoter.update(body(6));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    expect(quotes()).toHaveLength(1);
    expect(last()).toEqual({ state: 'none' });
  });

  it('is asked again after a create changed the budgets', async () => {
    quoter.update(body(5));
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    proxy.quote = (b) => ({ ...quoteOf(b), remaining: 95 });
    quoter.refresh();
    await vi.advanceTimersByTimeAsync(QUOTE_DEBOUNCE_MS);
    await settle();
    expect(quotes()).toHaveLength(2);
    expect(last()).toMatchObject({ state: 'quoted', answer: { remaining: 95 } });
  });
});
