import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';

/** The attribute a group's row carries: files dropped on it go to that group. */
export const DROP_GROUP = 'data-drop-group';

const carriesFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');
const groupAt = (target: EventTarget | null): string | null => (target instanceof Element ? target.closest(`[${DROP_GROUP}]`)?.getAttribute(DROP_GROUP) : null) ?? null;

interface FileDropProps {
  /** The group a drop outside any group row goes to, by name; null: the member is asked. */
  targetName: string | null;
  /** A group's name by id (for a drop on its row). */
  groupName: (id: string) => string | undefined;
  /** Files dropped: on a group's row (`groupId`), or elsewhere (null). */
  onFiles: (files: File[], groupId: string | null) => void;
  /** Files started to be dragged over (what handles them may start loading). */
  onDragStart?: () => void;
  children: ComponentChildren;
}

/**
 * Where files can be dropped: the whole view, and each group row in it (`DROP_GROUP`). While files
 * are dragged over, it says where they will go. Other drags (text, links) are left alone.
 */
export function FileDrop({ targetName, groupName, onFiles, onDragStart, children }: FileDropProps) {
  const [over, setOver] = useState<{ groupId: string | null } | null>(null);
  // dragenter/dragleave fire for every child crossed: the drag has left only when they balance.
  const depth = useRef(0);

  const track = (event: DragEvent) => {
    const groupId = groupAt(event.target);
    if (over?.groupId !== groupId || !over) setOver({ groupId });
  };
  const name = over?.groupId ? (groupName(over.groupId) ?? targetName) : targetName;

  const handlers: Record<'dragenter' | 'dragover' | 'dragleave' | 'drop', (event: DragEvent) => void> = {
    dragenter: (event) => {
      event.preventDefault();
      if (depth.current === 0) onDragStart?.();
      depth.current += 1;
      track(event);
    },
    dragover: (event) => {
      event.preventDefault(); // Allows the drop.
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      track(event);
    },
    dragleave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(null);
    },
    drop: (event) => {
      event.preventDefault(); // Not opened by the browser as a page.
      depth.current = 0;
      setOver(null);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length) onFiles(files, groupAt(event.target));
    },
  };
  const latest = useRef(handlers);
  latest.current = handlers;
  const root = useRef<HTMLDivElement>(null);
  // Listened to directly (the same names in every DOM), each drag of files only. Attached as the
  // view is put in the page (a layout effect), not after the next frame as an effect would be: a
  // drop on the view just shown would otherwise fall through to nothing (until some other update
  // happened to run the pending effect first, as the refresh's did when it started at once).
  useLayoutEffect(() => {
    const element = root.current;
    if (!element) return;
    const names = Object.keys(latest.current) as (keyof typeof handlers)[];
    const listeners = names.map((name) => [name, (event: Event) => carriesFiles(event as DragEvent) && latest.current[name](event as DragEvent)] as const);
    for (const [name, listener] of listeners) element.addEventListener(name, listener);
    return () => listeners.forEach(([name, listener]) => element.removeEventListener(name, listener));
  }, []);

  return (
    <div ref={root} class={over ? 'drop drop--over' : 'drop'}>
      {children}
      {over && (
        <div class="drop__target" role="status">
          {name ? t('files.dropTo', { group: name }) : t('files.dropChoose')}
        </div>
      )}
    </div>
  );
}

/**
 * "Add files…": the keyboard's way to the same files. The picker itself (FileInput, with the types
 * the proxy takes) is in the files chunk: hovering or focusing the button starts loading it, and a
 * click opens it once there (`onIntent`, `onPick`).
 */
export function AddFilesButton({ onIntent, onPick }: { onIntent: () => void; onPick: () => void }) {
  return (
    <button type="button" onPointerEnter={onIntent} onFocus={onIntent} onClick={onPick}>
      {t('files.add')}
    </button>
  );
}
