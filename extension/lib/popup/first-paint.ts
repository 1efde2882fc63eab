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
    if (!ready || performance.getEntriesByName(FIRST_PAINT_MARK).length) return;
    requestAnimationFrame(() => {
      if (!performance.getEntriesByName(FIRST_PAINT_MARK).length) performance.mark(FIRST_PAINT_MARK);
    });
  }, [ready]);
}
