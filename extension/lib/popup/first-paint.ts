import { useEffect } from 'preact/hooks';

/** The User Timing mark set when the popup first shows saved data (read by the e2e test run). */
export const FIRST_PAINT_MARK = 'arkbridge:first-data-paint';

/**
 * Marks the first frame in which a view shows what IndexedDB holds. The first view to get there
 * sets the mark; later ones and later renders do nothing. Set in a frame callback, so the mark
 * falls after the render that shows the data.
 */
export function useFirstPaintMark(ready: boolean): void {
  useEffect(() => {
    if (!ready || marked()) return;
    requestAnimationFrame(() => {
      if (!marked()) performance.mark(FIRST_PAINT_MARK);
      for (const task of waiting.splice(0)) task();
    });
  }, [ready]);
}

const marked = () => performance.getEntriesByName(FIRST_PAINT_MARK).length > 0;
/** Tasks waiting for the mark. */
const waiting: (() => void)[] = [];
/** A view that never marks (Team) does not hold them back longer than this. */
export const FIRST_PAINT_WAIT_MS = 1000;

/**
 * Runs `task` once the first frame showing saved data is painted (at once if it was; at the latest
 * after FIRST_PAINT_WAIT_MS): what the first paint does not need (the proxy client, a refresh) then
 * neither delays it nor is counted in it.
 */
export function afterFirstPaint(task: () => void): void {
  if (marked()) return task();
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    task();
  };
  const timer = setTimeout(once, FIRST_PAINT_WAIT_MS);
  waiting.push(once);
}
