import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

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
  /** Rows rendered above and below the visible ones. */
  overscan?: number;
  renderRow: (item: T, index: number, active: boolean) => ComponentChildren;
  /** Enter, or a click on a row. */
  onOpen?: (item: T, index: number) => void;
  /** Shown instead of the list when there are no items. */
  empty?: ComponentChildren;
}

/** Option ids must be valid ids whatever the keys contain. */
const optionId = (listId: string, key: string) => `${listId}-o-${key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;

/**
 * A list of fixed-height rows that renders only the visible ones (plus `overscan`), so ten
 * thousand items scroll like ten. Keyboard: the list is one tab stop (role="listbox"); arrow keys,
 * Home/End and PageUp/PageDown move the active row (aria-activedescendant), Enter opens it.
 */
export function VirtualList<T>({ id, label, items, getKey, rowHeight, height, overscan = 6, renderRow, onOpen, empty }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [activeKey, setActiveKey] = useState<string | null>(null);

  const found = activeKey === null ? -1 : items.findIndex((item) => getKey(item) === activeKey);
  const activeIndex = found;

  // The items shrank under the scroll position (a filter): go back into range.
  const maxTop = Math.max(0, items.length * rowHeight - height);
  useLayoutEffect(() => {
    if (scrollTop > maxTop) {
      if (viewport.current) viewport.current.scrollTop = maxTop;
      setScrollTop(maxTop);
    }
  }, [maxTop]);

  // The active row left the list (deleted, filtered out): forget it.
  useEffect(() => {
    if (activeKey !== null && found < 0) setActiveKey(null);
  }, [activeKey, found]);

  if (!items.length) return <div class="vlist-empty">{empty}</div>;

  const top = Math.min(scrollTop, maxTop);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(items.length - 1, Math.ceil((top + height) / rowHeight) + overscan - 1);
  const indexes: number[] = [];
  // The active row stays rendered (aria-activedescendant must point at an element) even when scrolled away.
  if (activeIndex >= 0 && activeIndex < first) indexes.push(activeIndex);
  for (let i = first; i <= last; i++) indexes.push(i);
  if (activeIndex > last) indexes.push(activeIndex);

  const scrollTo = (value: number) => {
    const next = Math.max(0, Math.min(maxTop, value));
    if (viewport.current) viewport.current.scrollTop = next;
    setScrollTop(next);
  };

  const activate = (index: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    setActiveKey(getKey(items[clamped]!));
    // Keep it in view.
    const rowTop = clamped * rowHeight;
    if (rowTop < top) scrollTo(rowTop);
    else if (rowTop + rowHeight > top + height) scrollTo(rowTop + rowHeight - height);
  };

  const page = Math.max(1, Math.floor(height / rowHeight) - 1);
  const onKeyDown = (event: KeyboardEvent) => {
    const current = activeIndex < 0 ? -1 : activeIndex;
    switch (event.key) {
      case 'ArrowDown':
        activate(current + 1);
        break;
      case 'ArrowUp':
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
      class="vlist"
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={activeIndex >= 0 ? optionId(id, activeKey!) : undefined}
      style={{ height: `${height}px`, overflowY: 'auto', position: 'relative' }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (activeIndex < 0) activate(Math.min(items.length - 1, Math.floor(top / rowHeight)));
      }}
    >
      <div style={{ height: `${items.length * rowHeight}px`, position: 'relative' }}>
        {indexes.map((index) => {
          const item = items[index]!;
          const key = getKey(item);
          const active = index === activeIndex;
          return (
            <div
              key={key}
              id={optionId(id, key)}
              class={active ? 'vlist__row vlist__row--active' : 'vlist__row'}
              role="option"
              aria-selected={active}
              aria-setsize={items.length}
              aria-posinset={index + 1}
              style={{ position: 'absolute', top: `${index * rowHeight}px`, left: 0, right: 0, height: `${rowHeight}px` }}
              onClick={() => {
                setActiveKey(key);
                onOpen?.(item, index);
              }}
            >
              {renderRow(item, index, active)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
