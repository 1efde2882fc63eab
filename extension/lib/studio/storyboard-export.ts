import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { fetchClips, selectClips } from '@/lib/studio/export-clips';

/**
 * A storyboard as one MP4, in the browser: its clips chosen and fetched (export-clips), then joined
 * without re-encoding by the shared join (`shared/media/mp4-join`, loaded only when exporting: it
 * and its MP4 library stay out of the studio's first paint). Progress: fetching is the first half,
 * joining the second.
 */

export type JoinResult =
  | { ok: true; bytes: Uint8Array; duration: number; clips: { start: number; duration: number }[] }
  | { ok: false; clip: number; reason: string; message: string };

export type JoinFn = (clips: (Blob | ArrayBuffer | Uint8Array)[], options: { onProgress?: (fraction: number) => void }) => Promise<JoinResult>;

export type ExportOutcome =
  | { ok: true; blob: Blob; duration: number }
  /** Shots (1-based) with no completed take to join. */
  | { ok: false; kind: 'missing'; shots: number[] }
  | { ok: false; kind: 'fetch'; shotNumber: number; message: string }
  /** The join refused a clip: its shot, the join's reason code and message. */
  | { ok: false; kind: 'join'; shotNumber: number; reason: string; message: string };

export interface ExportDeps {
  fetcher: typeof fetch;
  /** Loads the join (a dynamic import). */
  loadJoin: () => Promise<JoinFn>;
  onProgress?: (fraction: number) => void;
  now?: number;
  signal?: AbortSignal;
}

export async function exportStoryboard(board: Pick<StoryboardRecord, 'shots'>, tasks: ReadonlyMap<string, TaskRecord>, deps: ExportDeps): Promise<ExportOutcome> {
  const progress = deps.onProgress ?? (() => {});
  const selection = selectClips(board, tasks, deps.now ?? Date.now());
  if (!selection.ok) return { ok: false, kind: 'missing', shots: selection.missing };
  progress(0);
  const [join, fetched] = await Promise.all([deps.loadJoin(), fetchClips(selection.clips, deps.fetcher, (f) => progress(f / 2), deps.signal)]);
  if (!fetched.ok) return { ok: false, kind: 'fetch', shotNumber: fetched.shotNumber, message: fetched.message };
  const joined = await join(fetched.blobs, { onProgress: (f) => progress(0.5 + f / 2) });
  if (!joined.ok) {
    const shotNumber = selection.clips[joined.clip]?.shotNumber ?? joined.clip + 1;
    return { ok: false, kind: 'join', shotNumber, reason: joined.reason, message: joined.message };
  }
  progress(1);
  const bytes = joined.bytes;
  return { ok: true, blob: new Blob([bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer], { type: 'video/mp4' }), duration: joined.duration };
}
