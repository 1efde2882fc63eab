import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, text, unmount } from '@/components/dom-testing';
import { BudgetLine } from '@/entrypoints/popup/budget/BudgetLine';
import { usage, USAGE } from '@/lib/budget/testing/usage-fixture';
import { FIRST_PAINT_MARK } from '@/lib/popup/first-paint';
import { settingsStore } from '@/lib/storage/settings-store';
import { announceChange } from '@/lib/storage/store-changes';
import { FakeProxy, PROXY_URL } from '@/lib/testing/fake-proxy';
import { connect, resetState } from '@/lib/testing/test-setup';

const realFetch = globalThis.fetch;
let proxy: FakeProxy;

beforeEach(async () => {
  await resetState();
  await connect();
  // The popup's first view has painted: the line reads the proxy after that (afterFirstPaint).
  performance.clearMarks(FIRST_PAINT_MARK);
  performance.mark(FIRST_PAINT_MARK);
  proxy = new FakeProxy();
  globalThis.fetch = proxy.fetch;
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
});

const line = () => document.querySelector('.budget__line')?.textContent ?? null;
const alert = () => document.querySelector('.budget__alert');

describe('Popup: the budget line', () => {
  it('shows what is left of a limited budget and the running tasks, read when the popup opens', async () => {
    proxy.usage = usage({ alerts: [] });
    mount(<BudgetLine />);
    await vi.waitFor(() => expect(line()).toBe('Budget: 83.83 CNY left of 100 CNY this month · 1 of 3 running'));
    expect(alert()).toBeNull();
    expect(proxy.actions()).toEqual(['/proxy/usage']);
  });

  it('an unlimited budget: what was spent', async () => {
    proxy.usage = usage({ limit: null, remaining: null, maxRunning: null, running: 0, alerts: [] });
    mount(<BudgetLine />);
    await vi.waitFor(() => expect(line()).toBe('Budget: no limit (12.50 CNY spent this month)'));
  });

  it('the team’s budget too when it is the tighter one', async () => {
    proxy.usage = usage({ alerts: [], team: { limit: 500, spent: 470, reserved: 10, remaining: 20 } });
    mount(<BudgetLine />);
    await vi.waitFor(() => expect(line()).toBe('Budget: 83.83 CNY left of 100 CNY this month · Team: 20 CNY left of 500 CNY this month · 1 of 3 running'));
    expect(document.querySelector('.budget__team')?.textContent).toContain('Team: 20 CNY');
  });

  it('highlights the latest alert', async () => {
    proxy.usage = USAGE;
    mount(<BudgetLine />);
    await vi.waitFor(() => expect(alert()?.textContent).toBe('Alert: you reached 80% of your budget (81 CNY of 100 CNY).'));
    expect(alert()!.className).toContain('budget__alert--warning');
  });

  it('shows nothing about budgets from a proxy without them (404), and no error', async () => {
    mount(<BudgetLine />);
    await vi.waitFor(async () => expect((await settingsStore.get('budget.usage'))?.usage).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.querySelector('.budget')).toBeNull();
    expect(text()).toBe('');
  });

  it('paints the stored budget at once, then the fresh one', async () => {
    await settingsStore.put('budget.usage', { usage: usage({ remaining: 50, alerts: [] }), proxyUrl: PROXY_URL, memberName: 'Ada', fetchedAt: 1 });
    proxy.failNext('/proxy/usage', { kind: 'network' });
    mount(<BudgetLine />);
    await vi.waitFor(() => expect(line()).toContain('Budget: 50 CNY left of 100 CNY'));
    proxy.usage = usage({ remaining: 40, alerts: [] });
    await settingsStore.put('budget.usage', { usage: proxy.usage, proxyUrl: PROXY_URL, memberName: 'Ada', fetchedAt: 2 });
    announceChange('settings');
    await vi.waitFor(() => expect(line()).toContain('Budget: 40 CNY left of 100 CNY'));
  });
});
