import { useEffect, useRef, useState } from 'preact/hooks';
import { deferred } from '@/entrypoints/popup/deferred';
import { t } from '@/lib/i18n/translate';
import type { NearDuplicate } from '@/lib/saving/near-duplicate-check';

/**
 * The local-files module (reading, checking, queueing: it brings the upload path with it) is a
 * chunk loaded on the first drop or pick, not part of the popup's first paint.
 */
const localFiles = deferred(() => import('@/lib/saving/local-files'));

/** A file being read, shown until its item is recorded. */
export interface FileRead {
  key: string;
  name: string;
  size: number;
  read: number;
}

/** Progress is shown at most this often while a file is read. */
const SHOW_EVERY_MS = 100;
let batches = 0;

/**
 * Adds files to a group from this view, following each while it is read; what is not recorded as an
 * item (a duplicate, a part that could not load) is answered in `notices`.
 */
export function useLocalFiles(onOpenExisting?: (localId: string) => void) {
  const [reads, setReads] = useState<FileRead[]>([]);
  /** A near duplicate the member is asked about (Add anyway / Open the existing one). */
  const [asking, setAsking] = useState<{ name: string; near: NearDuplicate; answer: (choice: 'add' | 'open') => void } | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const update = (change: (current: FileRead[]) => FileRead[]) => mounted.current && setReads(change);

  async function add(groupId: string, files: readonly File[]): Promise<void> {
    const batch = files.map((file, index) => ({ key: `${++batches}-${index}`, name: file.name, size: file.size, read: 0 }));
    const keys = new Set(batch.map((b) => b.key));
    update((current) => [...current, ...batch]);
    setNotices([]);
    let module: Awaited<ReturnType<typeof localFiles.load>>;
    try {
      module = await localFiles.load();
    } catch {
      update((current) => current.filter((r) => !keys.has(r.key)));
      if (mounted.current) setNotices([t('app.partNotLoaded')]);
      return;
    }
    let shownAt = 0;
    await module.addLocalFiles(groupId, files, {
      onRead: (index, read, total) => {
        if (read < total && Date.now() - shownAt < SHOW_EVERY_MS) return;
        shownAt = Date.now();
        update((current) => current.map((r) => (r.key === batch[index]!.key ? { ...r, read } : r)));
      },
      onSettled: (index, result) => {
        update((current) => current.filter((r) => r.key !== batch[index]!.key));
        if (!result.ok && result.existing) onOpenExisting?.(result.existing);
        else if (!result.ok && !result.recorded && mounted.current) setNotices((current) => [...current, result.message]);
      },
      onNearDuplicate: (name, near) =>
        new Promise((resolve) => {
          if (!mounted.current) return resolve('add');
          setAsking({
            name,
            near,
            answer: (choice) => {
              setAsking(null);
              resolve(choice);
            },
          });
        }),
    });
  }

  return { reads, notices, asking, add, dismiss: () => setNotices([]) };
}
