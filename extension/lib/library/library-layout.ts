/**
 * How a group's assets are shown: a list of rows, or a grid of thumbnails. Remembered in the
 * extension's localStorage (as the popup's tab is), read synchronously so that the first paint
 * already has the member's choice; the popup and the side panel share it (one origin).
 */
export type LibraryLayout = 'list' | 'grid';

const KEY = 'arkbridge.library.layout';

/** The remembered layout; the grid of thumbnails until the member chose (or when storage is unavailable). */
export function readLibraryLayout(): LibraryLayout {
  try {
    return localStorage.getItem(KEY) === 'list' ? 'list' : 'grid';
  } catch {
    return 'grid';
  }
}

export function rememberLibraryLayout(layout: LibraryLayout): void {
  try {
    localStorage.setItem(KEY, layout);
  } catch {
    // Storage refused (a private window's quota): the choice lasts until the view closes.
  }
}
