import { db } from '@/lib/storage/database';
import type { AssetRecord, LocalAssetStatus } from '@/lib/storage/records/asset-record';

/** What `reconcile` writes: records to put, local ids to remove. */
export interface AssetWrites {
  put: AssetRecord[];
  remove?: string[];
}

/** The `assets` store. */
export const assetStore = {
  async all(): Promise<AssetRecord[]> {
    return (await db()).getAll('assets');
  },

  async get(localId: string): Promise<AssetRecord | undefined> {
    return (await db()).get('assets', localId);
  },

  async withStatus(status: LocalAssetStatus): Promise<AssetRecord[]> {
    return (await db()).getAllFromIndex('assets', 'byStatus', status);
  },

  async countWithStatus(status: LocalAssetStatus): Promise<number> {
    return (await db()).countFromIndex('assets', 'byStatus', status);
  },

  /** A group's records, oldest first. */
  async ofGroup(groupId: string): Promise<AssetRecord[]> {
    const records = await (await db()).getAllFromIndex('assets', 'byGroup', groupId);
    return records.sort((a, b) => a.createdAt - b.createdAt);
  },

  async put(record: AssetRecord): Promise<void> {
    await (await db()).put('assets', record);
  },

  async remove(localId: string): Promise<void> {
    await (await db()).delete('assets', localId);
  },

  /**
   * Adds a record to create and queues its create, in one transaction, unless a record of the same
   * URL in the same group is on its way or usable (not Failed): then nothing is written and that
   * record is answered. An uploaded item counts by the page's address it came from (its URL becomes
   * the proxy's address once uploaded). The group counts as just used. The create runs from
   * `notBefore` (default: at once; later while the bytes of an upload are still being read).
   */
  async addQueued(record: AssetRecord, notBefore = record.createdAt): Promise<AssetRecord | null> {
    const tx = (await db()).transaction(['assets', 'queue', 'groups'], 'readwrite');
    // A failing write rejects below and aborts the whole transaction; do not leave tx.done unhandled.
    tx.done.catch(() => {});
    const source = record.capture?.how === 'upload' ? record.capture.source : record.url;
    const existing = await tx.objectStore('assets').index('byUrlGroup').getAll([source, record.groupId]);
    let live = existing.find((a) => a.status !== 'Failed');
    // Uploads, whose source is kept apart from their URL, are only found among the group's records.
    live ??= (await tx.objectStore('assets').index('byGroup').getAll(record.groupId)).find(
      (a) => a.status !== 'Failed' && a.capture?.how === 'upload' && a.capture.source === source,
    );
    if (live) {
      await tx.done;
      return live;
    }
    await tx.objectStore('assets').add(record);
    await tx.objectStore('queue').add({ kind: 'createAsset', localId: record.localId, attempts: 0, notBefore });
    const group = await tx.objectStore('groups').get(record.groupId);
    if (group) await tx.objectStore('groups').put({ ...group, usedAt: record.createdAt });
    await tx.done;
    return null;
  },

  /**
   * Brings the records of listed assets up to date in one transaction: `decide` sees every record
   * that has a service asset id (keyed by it) and answers what to write, so that nothing another
   * context writes meanwhile is overwritten with what was read before it.
   */
  async reconcile(decide: (known: ReadonlyMap<string, AssetRecord>) => AssetWrites): Promise<void> {
    const tx = (await db()).transaction('assets', 'readwrite');
    const known = new Map((await tx.store.index('byAssetId').getAll()).map((r) => [r.assetId!, r]));
    const { put, remove = [] } = decide(known);
    await Promise.all([...put.map((r) => tx.store.put(r)), ...remove.map((id) => tx.store.delete(id))]);
    await tx.done;
  },
};
