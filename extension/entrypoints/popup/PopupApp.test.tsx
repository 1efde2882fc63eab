import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from '@/components/dom-testing';

// The connection is read from IndexedDB: here it never arrives, as in the popup's first frames.
vi.mock('@/lib/storage/stored-connection', () => ({ getConnection: () => new Promise(() => {}) }));

const { App } = await import('@/entrypoints/popup/PopupApp');

afterEach(() => unmount());

describe('Popup: first paint', () => {
  it('shows the title while the connection is read: the first contentful paint waits for no database', () => {
    const page = mount(<App />);
    expect(page.querySelector('main')!.getAttribute('aria-busy')).toBe('true');
    expect(page.querySelector('h1')!.textContent).toBe('Arkbridge');
  });
});
