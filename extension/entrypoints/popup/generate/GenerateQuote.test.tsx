import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuoteAnswer } from '@@/shared';
import { MODEL_IDS } from '@@/shared/catalog/testing/model-ids';
import { button, byLabel, click, description, mount, select, text, type, unmount } from '@/components/dom-testing';
import { GenerateView } from '@/entrypoints/popup/generate/GenerateView';
import { usage } from '@/lib/budget/testing/usage-fixture';
import { settingsStore } from '@/lib/storage/settings-store';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { PROXY_URL } from '@/lib/testing/fake-proxy';
import { connect, resetState } from '@/lib/testing/test-setup';

/** The quote near the Generate button (docs/extension.md, Generate). */

const realFetch = globalThis.fetch;
let proxy: VideoFakeProxy;
let submitted: ReturnType<typeof vi.fn<(localId: string) => void>>;

/** 3.672 CNY at 720p (the form's), 1 CNY at 480p, against 12.50 CNY left of the member's budget. */
const QUOTE: QuoteAnswer = { cost: 3.672, currency: 'CNY', priced: true, unit: 'second', tokens: null, remaining: 12.5, teamRemaining: null };
const priced = (over: Partial<QuoteAnswer> = {}) => (body: { resolution?: string }) => ({ ...QUOTE, ...(body.resolution === '480p' ? { cost: 1 } : {}), ...over });

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  await resetState();
  localStorage.clear();
  await connect();
  // The budget as the popup last read it: monthly.
  await settingsStore.put('budget.usage', { usage: usage({ alerts: [] }), proxyUrl: PROXY_URL, memberName: 'Ada', fetchedAt: 1 });
  proxy = new VideoFakeProxy();
  proxy.quote = priced();
  globalThis.fetch = proxy.fetch;
  submitted = vi.fn<(localId: string) => void>();
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
  vi.useRealTimers();
});

const submit = () => button('Generate video');
const quoteLine = () => document.querySelector('.gen-quote')!;
const quotes = () => proxy.callsOf('/proxy/quote');

/** The form was quoted, and the answer is in (the live region is no longer busy). */
async function answered() {
  await vi.waitFor(() => expect(quotes()).toHaveLength(1));
  await vi.waitFor(() => expect(quoteLine().getAttribute('aria-busy')).toBeNull());
}

/** Opens the view and fills a valid form: Seedance 2.0, a prompt, 720p. */
async function fillValid() {
  mount(<GenerateView onSubmitted={submitted} />);
  await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'));
  select(byLabel<HTMLSelectElement>('Model'), MODEL_IDS.s2);
  type(byLabel('Prompt'), 'A cat surfing');
  select(byLabel<HTMLSelectElement>('Resolution'), '720p');
}

describe('Generate: the quote before launching', () => {
  it('shows what the valid form costs at most and what is left, in a polite live region, quoted once for what the create sends', async () => {
    await fillValid();
    await vi.waitFor(() => expect(quoteLine().textContent).toBe('Costs up to 3.67 CNY · 12.50 CNY left this month'));
    expect(quoteLine().getAttribute('role')).toBe('status');
    expect(quoteLine().getAttribute('aria-live')).toBe('polite');
    expect(quotes()).toHaveLength(1);

    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    expect(proxy.callsOf('createVideo')[0]!.body).toEqual(quotes()[0]!.body);
  });

  it('nothing is quoted while the form is not valid', async () => {
    mount(<GenerateView onSubmitted={submitted} />);
    await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'));
    select(byLabel<HTMLSelectElement>('Model'), MODEL_IDS.s2);
    await vi.advanceTimersByTimeAsync(1_000);
    // Being quoted, the line would be busy at once.
    expect(quoteLine().getAttribute('aria-busy')).toBeNull();
    expect(quotes()).toHaveLength(0);
    expect(quoteLine().textContent).toBe('');
  });

  it('a task the budget cannot hold: Generate is disabled, saying which budget, what is left, what it costs, to ask the admin', async () => {
    proxy.quote = priced({ remaining: 1.2 });
    await fillValid();
    const reason =
      'Your budget cannot cover this task: 1.20 CNY left, and it costs up to 3.67 CNY. Generating is off until the budget is raised (a monthly budget starts again on the 1st, UTC): ask your team’s admin.';
    await vi.waitFor(() => expect(description(submit())).toBe(reason));
    expect(submit().disabled).toBe(true);
    click(submit());
    expect(proxy.callsOf('createVideo')).toHaveLength(0);

    // A cheaper form fits: generating is possible again.
    select(byLabel<HTMLSelectElement>('Resolution'), '480p');
    await vi.waitFor(() => expect(quoteLine().textContent).toBe('Costs up to 1 CNY · 1.20 CNY left this month'));
    expect(submit().disabled).toBe(false);
    expect(submit().getAttribute('aria-describedby')).toBeNull();
  });

  it('the team’s budget when it is the tighter one, and the reason when it cannot hold the task', async () => {
    proxy.quote = priced({ teamRemaining: 2 });
    await fillValid();
    await vi.waitFor(() => expect(quoteLine().textContent).toContain('Costs up to 3.67 CNY · 12.50 CNY left this month · team: 2 CNY left this month'));
    expect(description(submit())).toMatch(/^The team’s budget cannot cover this task: 2 CNY left, and it costs up to 3.67 CNY\./);
    expect(submit().disabled).toBe(true);
  });

  it('an unpriced model reads "Not priced", and generates', async () => {
    proxy.quote = priced({ priced: false, cost: 0, remaining: 0 });
    await fillValid();
    await vi.waitFor(() => expect(quoteLine().textContent).toBe('Not priced · 0 CNY left this month'));
    expect(submit().disabled).toBe(false);
  });

  it('a price table per million tokens: the token count in a secondary line and the title', async () => {
    proxy.quote = priced({ unit: 'million_tokens', tokens: 108_900 });
    await fillValid();
    await vi.waitFor(() => expect(document.querySelector('.gen-quote__tokens')?.textContent).toBe('Reserved for up to 108,900 output tokens'));
    expect(document.querySelector('.gen-quote__line')!.getAttribute('title')).toBe('Reserved for up to 108,900 output tokens');
  });

  it('an older proxy without quotes (404): no quote shown, asked once, and generating works as today', async () => {
    proxy.quote = null;
    await fillValid();
    await answered();
    expect(quoteLine().textContent).toBe('');
    expect(submit().disabled).toBe(false);
    type(byLabel('Prompt'), 'A dog surfing');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(quoteLine().getAttribute('aria-busy')).toBeNull();
    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
    expect(quotes()).toHaveLength(1);
  });

  it('a failed quote (network, 5xx) shows nothing and never blocks generating', async () => {
    proxy.failNext('/proxy/quote', { kind: 'status', status: 503 });
    await fillValid();
    await answered();
    expect(quoteLine().textContent).toBe('');
    expect(submit().disabled).toBe(false);
    click(submit());
    await vi.waitFor(() => expect(submitted).toHaveBeenCalledTimes(1));
  });

  it('a 400 from the quote shows the field problem as the create would, and Generate waits for a fix', async () => {
    proxy.failNext('/proxy/quote', { kind: 'api-error', status: 400, code: 'invalid_parameter', message: 'resolution: 720p is not offered to your team', param: 'resolution' });
    await fillValid();
    await vi.waitFor(() => expect(description(byLabel('Resolution'))).toContain('The proxy refused the request: Resolution: 720p is not offered to your team'));
    expect(submit().disabled).toBe(true);
    expect(description(submit())).toBe('1 problem to fix above before generating.');

    select(byLabel<HTMLSelectElement>('Resolution'), '480p');
    await vi.waitFor(() => expect(quoteLine().textContent).toBe('Costs up to 1 CNY · 12.50 CNY left this month'));
    expect(description(byLabel('Resolution'))).not.toContain('refused');
    expect(submit().disabled).toBe(false);
  });

  it('a model the member may not use (403) is said in the form', async () => {
    proxy.failNext('/proxy/quote', { kind: 'api-error', status: 403, code: 'model_not_allowed', message: 'model: Seedance 2.0 is not allowed for you; ask your team’s admin.', param: 'model' });
    await fillValid();
    await vi.waitFor(() => expect(text()).toContain('The proxy refused the request: model: Seedance 2.0 is not allowed for you'));
    expect(submit().disabled).toBe(true);
  });
});
