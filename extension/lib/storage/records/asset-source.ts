import type { SourceHow } from '@@/shared';

/**
 * Where an asset came from (the record's optional `source` field): the page it was captured on,
 * when, and how. Types only, importing nothing from the extension (no import cycles). A plain field
 * of the record: no index, no schema change; records made before it simply have none.
 */

export type { SourceHow };

export interface AssetSource {
  /** How it was captured (shared/provenance's SOURCE_HOWS). */
  how: SourceHow;
  /** When it was captured (ms since the epoch). */
  capturedAt: number;
  /** The page it was captured on (absent for a local file); at most SOURCE_URL_MAX characters (shared/provenance). */
  pageUrl?: string;
  /** That page's title, at most SOURCE_TITLE_MAX characters. */
  pageTitle?: string;
}
