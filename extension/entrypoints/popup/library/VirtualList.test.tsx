import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from '@/components/dom-testing';
import { VirtualList } from '@/entrypoints/popup/library/VirtualList';

const ROW = 40;
const HEIGHT = 320;
const items = Array.from({ length: 10_000 }, (_, i) => ({ id: `item-${i}`, name: `Item ${i}` }));

afterEach(() => unmount());

function open(onOpen = vi.fn()) {
  mount(
    <VirtualList
      id="list"
      label="Things"
      items={items}
      getKey={(i) => i.id}
      rowHeight={ROW}
      height={HEIGHT}
      renderRow={(i) => <span>{i.name}</span>}
      onOpen={onOpen}
    />,
  );
  return onOpen;
}

const listbox = () => document.querySelector<HTMLElement>('[role="listbox"]')!;
const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const rendered = () => options().map((o) => o.textContent);

function scrollTo(top: number) {
  act(() => {
    listbox().scrollTop = top;
    listbox().dispatchEvent(new Event('scroll'));
  });
}

function key(name: string) {
  act(() => void listbox().dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true })));
}

describe('VirtualList', () => {
  it('renders a bounded number of rows for 10,000 items, labelled, with their position in the set', () => {
    open();
    expect(listbox().getAttribute('aria-label')).toBe('Things');
    expect(options().length).toBeGreaterThanOrEqual(HEIGHT / ROW);
    expect(options().length).toBeLessThan(40);
    expect(rendered()[0]).toBe('Item 0');
    expect(options()[0]!.getAttribute('aria-setsize')).toBe('10000');
    // The scroll area still has the full height.
    expect((listbox().firstElementChild as HTMLElement).style.height).toBe(`${10_000 * ROW}px`);
  });

  it('renders other rows as it scrolls', () => {
    open();
    scrollTo(5000 * ROW);
    expect(rendered()).toContain('Item 5000');
    expect(rendered()).not.toContain('Item 0');
    expect(options().length).toBeLessThan(40);
    const row = options().find((o) => o.textContent === 'Item 5000')!;
    expect(row.style.top).toBe(`${5000 * ROW}px`);
    expect(row.getAttribute('aria-posinset')).toBe('5001');
    scrollTo(10_000 * ROW);
    expect(rendered()).toContain('Item 9999');
  });

  it('moves the active row with the keyboard and opens it with Enter', () => {
    const onOpen = open();
    act(() => listbox().focus());
    expect(listbox().getAttribute('aria-activedescendant')).toBe('list-o-item-0');
    key('ArrowDown');
    key('ArrowDown');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('list-o-item-2');
    expect(document.getElementById('list-o-item-2')!.getAttribute('aria-selected')).toBe('true');
    key('Enter');
    expect(onOpen).toHaveBeenCalledWith(items[2], 2);

    key('End');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('list-o-item-9999');
    expect(rendered()).toContain('Item 9999');
    expect(listbox().scrollTop).toBe(10_000 * ROW - HEIGHT);
    key('ArrowUp');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('list-o-item-9998');
    key('Home');
    expect(rendered()).toContain('Item 0');
    expect(options().length).toBeLessThan(40);
  });

  it('opens a clicked row', () => {
    const onOpen = open();
    act(() => options()[3]!.click());
    expect(onOpen).toHaveBeenCalledWith(items[3], 3);
  });

  it('shows the empty message without a list', () => {
    mount(<VirtualList id="l" label="Empty" items={[]} getKey={String} rowHeight={ROW} height={HEIGHT} renderRow={String} empty={<p>Nothing here</p>} />);
    expect(document.querySelector('[role="listbox"]')).toBeNull();
    expect(document.body.textContent).toContain('Nothing here');
  });
});
