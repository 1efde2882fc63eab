import { type DBSchema, deleteDB, type IDBPDatabase, openDB } from 'idb';
import type { CaptureState } from '@/lib/storage/records/capture-state';

/**
 * The bytes read from pages that wait to be uploaded, in a database of their own
 * (`arkbridge-uploads`), apart from the records: the popup reads every asset record at each
 * opening and must not load megabytes with them; and the main database keeps its schema.
 *
 * Kept under the key a record names (`capture.bytesKey`, the record's local id), or, for an item
 * read before its group exists (the menu's "New group…"), staged under its source address until the
 * new-group page adds it. Deleted once the asset is created or refused; anything no record names
 * any more is swept after a while (sweepBytes).
 */

export interface StoredBytes {
  key: string;
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
  storedAt: number;
  /** For a staged item: what its record will say (the bytes' key is this entry's key). */
  staged?: { source: string; capture: Extract<CaptureState, { how: 'upload' }>; type: 'Image' | 'Video' | 'Audio' };
}

interface UploadsDB extends DBSchema {
  bytes: { key: string; value: StoredBytes };
}

export const UPLOADS_DB_NAME = 'arkbridge-uploads';
/** Staged items not added by then, and bytes no record names, are deleted. */
export const ORPHAN_AFTER_MS = 60 * 60 * 1000;

let opening: Promise<IDBPDatabase<UploadsDB>> | null = null;

function uploadsDb(): Promise<IDBPDatabase<UploadsDB>> {
  opening ??= openDB<UploadsDB>(UPLOADS_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('bytes', { keyPath: 'key' });
    },
    blocking() {
      void closeUploadsDb();
    },
  });
  return opening;
}

/** Closes the database (tests). */
export async function closeUploadsDb(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current).close();
}

/** Deletes the whole database (tests). */
export async function resetUploadsDb(): Promise<void> {
  await closeUploadsDb();
  await deleteDB(UPLOADS_DB_NAME);
}

export const stagedKey = (source: string): string => `staged:${source}`;

export const uploadBytes = {
  async put(entry: StoredBytes): Promise<void> {
    await (await uploadsDb()).put('bytes', entry);
  },

  async get(key: string): Promise<StoredBytes | undefined> {
    return (await uploadsDb()).get('bytes', key);
  },

  async remove(key: string): Promise<void> {
    await (await uploadsDb()).delete('bytes', key);
  },

  async keys(): Promise<string[]> {
    return (await uploadsDb()).getAllKeys('bytes');
  },

  /** The staged item for a source address (read before its group existed), if any and not too old. */
  async staged(source: string, now = Date.now()): Promise<StoredBytes | undefined> {
    const entry = await this.get(stagedKey(source));
    return entry && now - entry.storedAt < ORPHAN_AFTER_MS ? entry : undefined;
  },

  /**
   * Deletes what no record needs any more: bytes whose key `needed` does not answer true for,
   * once older than ORPHAN_AFTER_MS (a record being written meanwhile is younger than that).
   */
  async sweep(needed: (key: string) => boolean, now = Date.now()): Promise<number> {
    const database = await uploadsDb();
    let removed = 0;
    for (const key of await database.getAllKeys('bytes')) {
      if (needed(key)) continue;
      const entry = await database.get('bytes', key);
      if (entry && now - entry.storedAt >= ORPHAN_AFTER_MS) {
        await database.delete('bytes', key);
        removed++;
      }
    }
    return removed;
  },
};
