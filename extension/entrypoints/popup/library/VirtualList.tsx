import { Component, type ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  /** DOM id of the listbox; option ids derive from it. */
  id: string;
  /** Accessible name of the list. */
  label: string;
  items: readonly T[];
  /** A stable key of an item (kept as the active row when the items change). */
  getKey: (item: T) => string;
  /** Every row has this height, in pixels. */
  rowHeight: number;
  /** Height of the scrolling viewport, in pixels. */
  height: number;
  /**
   * A grid: as many columns as fit cells at least this wide (the viewport's width, measured), items
   * placed left to right, row by row. Absent: a list (one column).
   */
  cellMinWidth?: number;
  /** Rows rendered above and below the visible ones. */
  overscan?: number;
  /**
   * `visible`: the item is in the viewport (not only in the overscan) and either the scroll has
   * settled (SCROLL_SETTLE_MS without a scroll event) or it was in view when the scroll began:
   * media may load. Items scrolled into view load nothing until the scroll stops.
   */
  renderRow: (item: T, index: number, active: boolean, visible: boolean) => ComponentChildren;
  /** Enter, or a click on a row. */
  onOpen?: (item: T, index: number) => void;
  /** Shown instead of the list when there are no items. */
  empty?: ComponentChildren;
  /** Extra attributes of an item's element (e.g. a drop target's data). */
  itemProps?: (item: T) => Record<string, string>;
}

/** Columns before the viewport was measured (happy-dom, the first render): the popup's width fits three. */
export const UNMEASURED_COLUMNS = 3;

/**
 * The scroll has settled after this long without a scroll event: media loads only then, so a fling
 * through thousands of items fetches and decodes none of what flies past.
 */
export const SCROLL_SETTLE_MS = 120;

/** Option ids must be valid ids whatever the keys contain. */
const optionId = (listId: string, key: string) => `${listId}-o-${key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;

/** The rows to render for a scroll position: those in view, and `overscan` more on each side. */
export function windowRows(top: number, height: number, rowHeight: number, rowCount: number, overscan: number) {
  const firstVisible = Math.floor(top / rowHeight);
  const lastVisible = Math.min(rowCount - 1, Math.ceil((top + height) / rowHeight) - 1);
  return { first: Math.max(0, firstVisible - overscan), last: Math.min(rowCount - 1, lastVisible + overscan), firstVisible, lastVisible };
}

/** The viewport's width (0 until laid out), followed as it resizes (the side panel can be dragged wider). */
function useWidth(element: { current: HTMLElement | null }, wanted: boolean): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!wanted || !target) return;
    setWidth(target.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(target.clientWidth));
    observer.observe(target);
    return () => observer.disconnect();
  }, [wanted, element.current]);
  return width;
}

/**
 * A list (or a grid) of fixed-height rows that renders only the visible rows (plus `overscan`), so
 * ten thousand items scroll like ten. Keyboard: the list is one tab stop (role="listbox"); arrow
 * keys (left and right too in a grid), Home/End and PageUp/PageDown move the active item
 * (aria-activedescendant), Enter opens it.
 */
export function VirtualList<T>({ id, label, items, getKey, rowHeight, height, cellMinWidth, overscan = 6, renderRow, onOpen, empty, itemProps }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  // The scroll position as last rendered: set only when it changes which rows are rendered or in
  // view (a scroll within the same rows renders nothing); `topNow` follows every scroll event.
  const [scrollTop, setScrollTop] = useState(0);
  const topNow = useRef(0);
  /** While scrolling: the rows in view when the scroll began (their media stays); null: settled. */
  const [scrollFrom, setScrollFrom] = useState<{ first: number; last: number } | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(settle.current), []);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const grid = cellMinWidth !== undefined;
  const width = useWidth(viewport, grid && items.length > 0);
  const columns = !grid ? 1 : width > 0 ? Math.max(1, Math.floor(width / cellMinWidth)) : UNMEASURED_COLUMNS;
  const rowCount = Math.ceil(items.length / columns);

  // Found once per change of the items or the active row, not at every render (a scroll renders).
  const found = useMemo(() => (activeKey === null ? -1 : items.findIndex((item) => getKey(item) === activeKey)), [items, activeKey]);
  const activeIndex = found;

  // The items shrank under the scroll position (a filter): go back into range.
  const maxTop = Math.max(0, rowCount * rowHeight - height);
  useLayoutEffect(() => {
    if (Math.max(scrollTop, topNow.current) > maxTop) {
      if (viewport.current) viewport.current.scrollTop = maxTop;
      topNow.current = maxTop;
      setScrollTop(maxTop);
    }
  }, [maxTop]);

  // The active row left the list (deleted, filtered out): forget it.
  useEffect(() => {
    if (activeKey !== null && found < 0) setActiveKey(null);
  }, [activeKey, found]);

  if (!items.length) return <div class="vlist-empty">{empty}</div>;

  const top = Math.min(scrollTop, maxTop);
  const rows = windowRows(top, height, rowHeight, rowCount, overscan);
  const onScroll = (event: Event) => {
    const next = (event.currentTarget as HTMLElement).scrollTop;
    topNow.current = next;
    const moved = windowRows(Math.min(next, maxTop), height, rowHeight, rowCount, overscan);
    if (moved.first !== rows.first || moved.firstVisible !== rows.firstVisible || moved.lastVisible !== rows.lastVisible) setScrollTop(next);
    if (!scrollFrom) setScrollFrom({ first: rows.firstVisible, last: rows.lastVisible });
    clearTimeout(settle.current);
    settle.current = setTimeout(() => setScrollFrom(null), SCROLL_SETTLE_MS);
  };
  const first = rows.first * columns;
  const last = Math.min(items.length - 1, (rows.last + 1) * columns - 1);
  const indexes: number[] = [];
  // The active item stays rendered (aria-activedescendant must point at an element) even when scrolled away.
  if (activeIndex >= 0 && activeIndex < first) indexes.push(activeIndex);
  for (let i = first; i <= last; i++) indexes.push(i);
  if (activeIndex > last) indexes.push(activeIndex);

  const scrollTo = (value: number) => {
    const next = Math.max(0, Math.min(maxTop, value));
    if (viewport.current) viewport.current.scrollTop = next;
    topNow.current = next;
    setScrollTop(next);
  };

  const activate = (index: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    setActiveKey(getKey(items[clamped]!));
    // Keep it in view.
    const rowTop = Math.floor(clamped / columns) * rowHeight;
    const now = Math.min(topNow.current, maxTop);
    if (rowTop < now) scrollTo(rowTop);
    else if (rowTop + rowHeight > now + height) scrollTo(rowTop + rowHeight - height);
  };

  const page = Math.max(1, Math.floor(height / rowHeight) - 1) * columns;
  const onKeyDown = (event: KeyboardEvent) => {
    const current = activeIndex < 0 ? -1 : activeIndex;
    switch (event.key) {
      case 'ArrowDown':
        activate(current < 0 ? 0 : Math.min(current + columns, items.length - 1));
        break;
      case 'ArrowUp':
        activate(current < 0 ? 0 : current - columns < 0 ? current : current - columns);
        break;
      case 'ArrowRight':
        if (!grid) return;
        activate(current + 1);
        break;
      case 'ArrowLeft':
        if (!grid) return;
        activate(current < 0 ? 0 : current - 1);
        break;
      case 'Home':
        activate(0);
        break;
      case 'End':
        activate(items.length - 1);
        break;
      case 'PageDown':
        activate(current + page);
        break;
      case 'PageUp':
        activate(current - page);
        break;
      case 'Enter':
      case ' ':
        if (current < 0) return;
        onOpen?.(items[current]!, current);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div
      ref={viewport}
      id={id}
      class={grid ? 'vlist vlist--grid' : 'vlist'}
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={activeIndex >= 0 ? optionId(id, activeKey!) : undefined}
      style={{ height: `${height}px`, overflowY: 'auto', position: 'relative' }}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // One listener for the rows (a row renders again only when what it shows changes).
        const option = (event.target as Element).closest?.('[role="option"]');
        const index = option ? Number(option.getAttribute('aria-posinset')) - 1 : -1;
        const item = items[index];
        if (item === undefined) return;
        setActiveKey(getKey(item));
        onOpen?.(item, index);
      }}
      onFocus={() => {
        if (activeIndex < 0) activate(Math.min(items.length - 1, Math.floor(Math.min(topNow.current, maxTop) / rowHeight) * columns));
      }}
    >
      <div style={{ height: `${rowCount * rowHeight}px`, position: 'relative' }}>
        {indexes.map((index) => {
          const item = items[index]!;
          const key = getKey(item);
          const row = Math.floor(index / columns);
          return (
            <Row
              key={key}
              listId={id}
              itemKey={key}
              item={item}
              index={index}
              setSize={items.length}
              row={row}
              column={index % columns}
              columns={grid ? columns : 0}
              rowHeight={rowHeight}
              active={index === activeIndex}
              visible={row >= rows.firstVisible && row <= rows.lastVisible && (!scrollFrom || (row >= scrollFrom.first && row <= scrollFrom.last))}
              renderRow={renderRow}
              itemProps={itemProps}
            />
          );
        })}
      </div>
    </div>
  );
}

interface RowProps<T> {
  listId: string;
  itemKey: string;
  item: T;
  index: number;
  setSize: number;
  row: number;
  column: number;
  /** A grid's columns; 0: a list. */
  columns: number;
  rowHeight: number;
  active: boolean;
  visible: boolean;
  renderRow: VirtualListProps<T>['renderRow'];
  itemProps: VirtualListProps<T>['itemProps'];
}

/**
 * One item's element: rendered again only when one of its props changes, so that a scroll renders
 * the rows it brings in and none of those that stay (nor does the scroll's settling, but for the
 * rows whose media may now load).
 */
class Row<T> extends Component<RowProps<T>> {
  override shouldComponentUpdate(next: RowProps<T>): boolean {
    const now = this.props as unknown as Record<string, unknown>;
    const then = next as unknown as Record<string, unknown>;
    for (const name in then) if (then[name] !== now[name]) return true;
    return false;
  }

  override render({ listId, itemKey, item, index, setSize, row, column, columns, rowHeight, active, visible, renderRow, itemProps }: RowProps<T>) {
    const cellWidth = columns ? 100 / columns : 0;
    return (
      <div
        {...itemProps?.(item)}
        id={optionId(listId, itemKey)}
        class={active ? 'vlist__row vlist__row--active' : 'vlist__row'}
        role="option"
        aria-selected={active}
        aria-setsize={setSize}
        aria-posinset={index + 1}
        data-row={row}
        style={
          columns
            ? { position: 'absolute', top: `${row * rowHeight}px`, left: `${column * cellWidth}%`, width: `${cellWidth}%`, height: `${rowHeight}px` }
            : { position: 'absolute', top: `${row * rowHeight}px`, left: 0, right: 0, height: `${rowHeight}px` }
        }
      >
        {renderRow(item, index, active, visible)}
      </div>
    );
  }
}
