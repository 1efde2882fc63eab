import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from '@/components/dom-testing';

// The connection is read from IndexedDB: here it never arrives, as in the popup's first frames.
vi.mock('@/lib/storage/stored-connection', () => ({ getConnection: () => new Promise(() => {}) }));

const { App } = await import('@/entrypoints/popup/PopupApp');

afterEach(() => unmount());

describe('Popup: first paint', () => {
  it('shows the title while the connection is read, as the page does before any script ran (no flash when the app takes over)', () => {
    const shell = readFileSync(join(import.meta.dirname, 'index.html'), 'utf8').match(/<div id="app">(.*)<\/div>/)![1]!;
    const page = document.createElement('div');
    page.innerHTML = shell;
    const title = page.querySelector('h1')!;
    document.body.append(page);
    act(() => render(<App />, page));
    // The same element: rendered over, not replaced.
    expect(page.querySelector('h1')).toBe(title);
    expect(page.querySelector('main')!.getAttribute('aria-busy')).toBe('true');
    expect(page.innerHTML).toBe(shell);
    act(() => render(null, page));
    page.remove();
    expect(mount(<App />).querySelector('h1')!.textContent).toBe('Arkbridge');
  });
});
