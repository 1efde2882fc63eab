import type { JoinOptions, JoinRefusalReason, JoinResult, Mp4Clip } from '@@/shared/media/mp4-join';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { fetchClips, selectClips } from '@/lib/studio/export-clips';
import { checkSizes, type NamedSize, type OddShot } from '@/lib/studio/export-sizes';

/**
 * A storyboard as one MP4, in the browser: its clips chosen and fetched (export-clips), then joined
 * without re-encoding by the shared join (`shared/media/mp4-join`, loaded only when exporting: it
 * and its MP4 library stay out of the studio's first paint). Progress: fetching is the first half,
 * joining the second.
 */

/** The shared join (its types only here: the module and its MP4 library load when exporting). */
export type JoinFn = (clips: readonly Mp4Clip[], options: JoinOptions) => Promise<JoinResult>;

/** Loads the shared join, in a chunk of its own. */
export const loadJoin = async (): Promise<JoinFn> => (await import('@@/shared/media/mp4-join')).joinMp4;

export type ExportOutcome =
  | { ok: true; blob: Blob; duration: number }
  /** Shots (1-based) with no completed take to join. */
  | { ok: false; kind: 'missing'; shots: number[] }
  /** Takes of different sizes: the storyboard's size and the shots of another one (export-sizes). */
  | { ok: false; kind: 'sizes'; size: NamedSize; odd: OddShot[] }
  | { ok: false; kind: 'fetch'; shotNumber: number; message: string }
  /** The join refused a clip: its shot (null: none to name), the join's reason and its message (English, for logs). */
  | { ok: false; kind: 'join'; shotNumber: number | null; reason: JoinRefusalReason; message: string };

export interface ExportDeps {
  fetcher: typeof fetch;
  /** Loads the join (loadJoin; tests give their own). */
  loadJoin: () => Promise<JoinFn>;
  onProgress?: (fraction: number) => void;
  now?: number;
  signal?: AbortSignal;
}

export async function exportStoryboard(board: Pick<StoryboardRecord, 'shots'>, tasks: ReadonlyMap<string, TaskRecord>, deps: ExportDeps): Promise<ExportOutcome> {
  const progress = deps.onProgress ?? (() => {});
  const selection = selectClips(board, tasks, deps.now ?? Date.now());
  if (!selection.ok) return { ok: false, kind: 'missing', shots: selection.missing };
  // Known from the takes' requests: said before anything is downloaded.
  const sizes = checkSizes(selection.clips);
  if (!sizes.ok) return { ok: false, kind: 'sizes', size: sizes.size, odd: sizes.odd };
  progress(0);
  const [join, fetched] = await Promise.all([deps.loadJoin(), fetchClips(selection.clips, deps.fetcher, (f) => progress(f / 2), deps.signal)]);
  if (!fetched.ok) return { ok: false, kind: 'fetch', shotNumber: fetched.shotNumber, message: fetched.message };
  const joined = await join(fetched.blobs, { onProgress: (f) => progress(0.5 + f / 2) });
  if (!joined.ok) {
    const shotNumber = joined.clip === null ? null : (selection.clips[joined.clip]?.shotNumber ?? joined.clip + 1);
    return { ok: false, kind: 'join', shotNumber, reason: joined.reason, message: joined.message };
  }
  progress(1);
  const bytes = joined.bytes;
  return { ok: true, blob: new Blob([bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer], { type: 'video/mp4' }), duration: joined.duration };
}
