import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, unmount } from '@/components/dom-testing';
import { SCROLL_SETTLE_MS, UNMEASURED_COLUMNS, VirtualList } from '@/entrypoints/popup/library/VirtualList';

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

  it('renders nothing for a scroll that keeps the same rows, and only the rows (not the list) for one that changes them', () => {
    const renderRow = vi.fn((i: { name: string }) => <span>{i.name}</span>);
    mount(<VirtualList id="list" label="Things" items={items} getKey={(i) => i.id} rowHeight={ROW} height={HEIGHT} renderRow={renderRow} />);
    scrollTo(ROW / 4); // the scroll starts (one render)
    renderRow.mockClear();
    scrollTo(ROW / 2);
    scrollTo((3 * ROW) / 4);
    expect(renderRow).not.toHaveBeenCalled();
    scrollTo(ROW);
    expect(renderRow).toHaveBeenCalled();
    expect(renderRow.mock.calls.length).toBeLessThan(40);
  });

  it('renders, for a scroll by one row, the row it brings in and those whose view changes, not every row in the page', () => {
    const renderRow = vi.fn((i: { name: string }) => <span>{i.name}</span>);
    mount(<VirtualList id="list" label="Things" items={items} getKey={(i) => i.id} rowHeight={ROW} height={HEIGHT} renderRow={renderRow} />);
    scrollTo(ROW / 4);
    renderRow.mockClear();
    scrollTo(ROW + ROW / 4);
    // The row brought in below, and the one that left the view above (no longer "visible"); before
    // rows rendered on their own, all 16 in the page rendered again.
    expect(renderRow.mock.calls.map(([item]) => item.name).sort()).toEqual(['Item 0', 'Item 15']);
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

describe('VirtualList as a grid', () => {
  const COLUMNS = UNMEASURED_COLUMNS;
  function openGrid(onOpen = vi.fn()) {
    mount(
      <VirtualList
        id="grid"
        label="Tiles"
        items={items}
        getKey={(i) => i.id}
        rowHeight={ROW}
        height={HEIGHT}
        cellMinWidth={100}
        overscan={2}
        renderRow={(i, _index, _active, visible) => <span data-visible={String(visible)}>{i.name}</span>}
        onOpen={onOpen}
      />,
    );
    return onOpen;
  }
  const rowsInPage = () => new Set(options().map((o) => o.dataset.row)).size;
  const visibleNames = () => options().filter((o) => o.querySelector('[data-visible="true"]')).map((o) => o.textContent);

  it('windows 10,000 items by rows of several columns: a bounded number of rows in the page', () => {
    openGrid();
    // Eight rows in view and two more on each side that exist (none above the first).
    expect(rowsInPage()).toBe(HEIGHT / ROW + 2);
    expect(options().length).toBe(rowsInPage() * COLUMNS);
    expect((listbox().firstElementChild as HTMLElement).style.height).toBe(`${Math.ceil(10_000 / COLUMNS) * ROW}px`);
    const fifth = options()[4]!;
    expect(fifth.style.top).toBe(`${ROW}px`);
    expect(fifth.style.left).toBe(`${100 / COLUMNS}%`);
    scrollTo(2000 * ROW);
    expect(rowsInPage()).toBe(HEIGHT / ROW + 4);
    expect(rendered()).toContain(`Item ${2000 * COLUMNS}`);
    expect(rendered()).not.toContain('Item 0');
  });

  it('says which items are in view once the scroll settles, so that only their media loads (not the rows rendered beyond it, nor those scrolled past)', () => {
    vi.useFakeTimers();
    try {
      openGrid();
      expect(visibleNames()).toEqual(items.slice(0, (HEIGHT / ROW) * COLUMNS).map((i) => i.name));
      expect(rendered()).toContain(`Item ${(HEIGHT / ROW) * COLUMNS}`); // rendered, in the overscan, but not visible
      // A short scroll: what was in view keeps its media (no blink); the row scrolled in waits.
      scrollTo(ROW);
      expect(visibleNames()).toEqual(items.slice(COLUMNS, (HEIGHT / ROW) * COLUMNS).map((i) => i.name));
      scrollTo(300 * ROW);
      scrollTo(500 * ROW);
      // Still scrolling: nothing loads.
      expect(visibleNames()).toEqual([]);
      act(() => void vi.advanceTimersByTime(SCROLL_SETTLE_MS - 1));
      expect(visibleNames()).toEqual([]);
      act(() => void vi.advanceTimersByTime(1));
      expect(visibleNames()[0]).toBe(`Item ${500 * COLUMNS}`);
      expect(visibleNames()).toHaveLength((HEIGHT / ROW) * COLUMNS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('moves by one with left and right and by a row with up and down; Enter opens', () => {
    const onOpen = openGrid();
    act(() => listbox().focus());
    expect(listbox().getAttribute('aria-activedescendant')).toBe('grid-o-item-0');
    key('ArrowRight');
    key('ArrowDown');
    expect(listbox().getAttribute('aria-activedescendant')).toBe(`grid-o-item-${1 + COLUMNS}`);
    key('ArrowLeft');
    key('ArrowUp');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('grid-o-item-0');
    key('ArrowUp');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('grid-o-item-0');
    key('End');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('grid-o-item-9999');
    key('Enter');
    expect(onOpen).toHaveBeenCalledWith(items[9999], 9999);
  });

  it('leaves left and right alone in a list', () => {
    open();
    act(() => listbox().focus());
    key('ArrowRight');
    expect(listbox().getAttribute('aria-activedescendant')).toBe('list-o-item-0');
  });
});
