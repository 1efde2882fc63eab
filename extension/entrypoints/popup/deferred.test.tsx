import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { deferred, Later, PENDING_TEXT_DELAY_MS } from '@/entrypoints/popup/deferred';
import { setLocale } from '@/lib/i18n/translate';

afterEach(() => {
  unmount();
  vi.useRealTimers();
  void setLocale('en');
});

/** A module whose import the test settles by hand. */
function manualImport() {
  let settle!: { resolve: (m: { Part: () => preact.JSX.Element }) => void; reject: (error: Error) => void };
  const importer = vi.fn(() => new Promise<{ Part: () => preact.JSX.Element }>((resolve, reject) => (settle = { resolve, reject })));
  return { importer, settle: () => settle };
}

const Part = () => <p>The part itself</p>;
const flush = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 0)));

describe('Popup: parts loaded on demand', () => {
  it('imports a part once, shows a quiet line while it loads ("Loading…" only when slow), then the part', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const { importer, settle } = manualImport();
    const part = deferred(importer);
    mount(<Later part={part}>{(m) => <m.Part />}</Later>);
    expect(importer).toHaveBeenCalledTimes(1);
    const pending = document.querySelector('[role="status"]')!;
    expect(pending.getAttribute('aria-busy')).toBe('true');
    expect(pending.textContent).toBe('');
    act(() => void vi.advanceTimersByTime(PENDING_TEXT_DELAY_MS));
    expect(text()).toBe('Loading…');

    settle().resolve({ Part });
    await flush();
    expect(text()).toBe('The part itself');

    // Shown again (another opening of the tab): no second import, no loading line.
    mount(<Later part={part}>{(m) => <m.Part />}</Later>);
    expect(text()).toBe('The part itself');
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('says so when a part cannot be loaded, and tries again on request', async () => {
    const { importer, settle } = manualImport();
    const part = deferred(importer);
    mount(<Later part={part}>{(m) => <m.Part />}</Later>);
    settle().reject(new Error('chunk missing'));
    await flush();
    expect(document.querySelector('[role="alert"]')!.textContent).toContain('This part of Arkbridge could not be loaded.');

    click(button('Try again'));
    expect(importer).toHaveBeenCalledTimes(2);
    settle().resolve({ Part });
    await flush();
    expect(text()).toBe('The part itself');
  });

  it('speaks Chinese in a Chinese popup', async () => {
    await setLocale('zh-CN');
    const { importer, settle } = manualImport();
    mount(<Later part={deferred(importer)}>{(m) => <m.Part />}</Later>);
    settle().reject(new Error('chunk missing'));
    await flush();
    expect(text()).toContain('无法加载');
    expect(button('重试')).toBeTruthy();
  });
});
