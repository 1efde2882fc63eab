import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { deferred, useDeferred } from '@/entrypoints/popup/deferred';
import { DuplicateWarning } from '@/components/DuplicateWarning';
import { FileDrop } from '@/entrypoints/popup/library/FileDrop';
import { useLocalFiles } from '@/entrypoints/popup/library/use-local-files';
import { dropGroup, fileGroups } from '@/lib/library/drop-group';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/** The file picker, the group question and the reading progress: loaded on intent (library-files). */
const filesPart = deferred(() => import('@/entrypoints/popup/library/library-files'));

interface LibraryFilesOptions {
  groups: GroupRecord[];
  groupsById: Map<string, GroupRecord>;
  /** The group open in the view, if any: files dropped anywhere go there. */
  openGroupId: string | null;
  /** The library as last read: the last used group is read again with it (a save elsewhere may change it). */
  library: unknown;
  /** Files are going to `groupId`: the view shows that group. */
  onAdding: (groupId: string) => void;
  /** The member chose to open an asset already in the library rather than add a near duplicate. */
  onOpenAsset?: (localId: string) => void;
}

/**
 * Files into the Library, dropped on it (on a group's row: that group) or picked with "Add files…":
 * which group they go to (dropGroup), the question when that cannot be told, the reading progress
 * and what was not added. The view wraps its screen in `withDrop` and shows `fileParts`.
 */
export function useLibraryFiles({ groups, groupsById, openGroupId, library, onAdding, onOpenAsset }: LibraryFilesOptions) {
  const files = useLocalFiles(onOpenAsset);
  /** Files waiting for the member to choose their group. */
  const [choosing, setChoosing] = useState<File[] | null>(null);
  const [lastUsed, setLastUsed] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  useEffect(() => {
    void lastUsedGroup.id().then((id) => mounted.current && setLastUsed(id));
  }, [library]);

  const [filesWanted, setFilesWanted] = useState(false);
  const filesUi = useDeferred(filesPart, filesWanted || files.reads.length > 0 || choosing !== null);
  const fileInput = useRef<HTMLInputElement>(null);
  /** "Add files…" was clicked before the picker was there: it opens once it is. */
  const picking = useRef(false);
  useEffect(() => {
    if (!picking.current || !filesUi.module || !fileInput.current) return;
    picking.current = false;
    fileInput.current.click();
  });

  /** Files into a group: shown there, each as its item once read. */
  const addFiles = (target: string, list: File[]) => {
    setChoosing(null);
    setLastUsed(target);
    onAdding(target);
    void files.add(target, list);
  };
  /** Dropped on a group's row (`row`), or anywhere else / picked (null): see dropGroup. */
  const receiveFiles = (list: File[], row: string | null) => {
    const target = dropGroup({ row, open: openGroupId, lastUsed }, groups);
    if (target) addFiles(target, list);
    else setChoosing(list);
  };
  const fileTarget = dropGroup({ row: null, open: openGroupId, lastUsed }, groups);
  const wantFiles = () => setFilesWanted(true);
  const pickFiles = () => {
    if (fileInput.current) return fileInput.current.click();
    picking.current = true;
    wantFiles();
  };
  const withDrop = (content: ComponentChildren) => (
    <FileDrop targetName={fileTarget ? (groupsById.get(fileTarget)?.name ?? null) : null} groupName={(id) => groupsById.get(id)?.name} onFiles={receiveFiles} onDragStart={wantFiles}>
      {content}
    </FileDrop>
  );
  const filesModule = filesUi.module;
  const fileParts = (
    <>
      {filesModule && <filesModule.FileInput inputRef={fileInput} onFiles={(list) => receiveFiles(list, null)} />}
      {choosing && filesModule && (
        <filesModule.GroupPicker count={choosing.length} groups={fileGroups(groups)} onPick={(id) => addFiles(id, choosing)} onCancel={() => setChoosing(null)} />
      )}
      {files.notices.length > 0 && (
        <Banner tone="error">
          {files.notices.map((message, i) => (
            <p key={i}>{message}</p>
          ))}
        </Banner>
      )}
      {files.asking && <DuplicateWarning name={files.asking.name} near={files.asking.near} onChoose={files.asking.answer} />}
      {filesModule && <filesModule.FileReads reads={files.reads} />}
    </>
  );
  return { withDrop, fileParts, wantFiles, pickFiles };
}
