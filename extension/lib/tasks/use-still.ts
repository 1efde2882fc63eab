import { useEffect, useState } from 'preact/hooks';
import type { StillRecord } from '@/lib/storage/records/still-record';
import { type StillSubject, stillOf, storedStill } from '@/lib/tasks/task-stills';

export interface StillView {
  /** The picture shown before the video plays: the kept last frame, else the taken head still. */
  poster?: string;
  /** The frame the video starts from (taken) and the one it ends on (the kept last frame, else taken). */
  head?: string;
  tail?: string;
  /** The video's length as measured when its stills were taken. */
  duration?: number;
  /** The video does not load any more (expired, deleted). */
  gone: boolean;
}

/**
 * A video's stills for a view. `poster`: a tile, which needs a taken still only when there is no
 * kept last frame (or it fails to load); `card`: the timeline's, which shows head and tail and wants
 * the length, so it always has them taken (once per task: task-stills).
 */
export function useStill(subject: StillSubject | null, need: 'poster' | 'card'): StillView {
  const [record, setRecord] = useState<StillRecord | undefined>();
  const [gone, setGone] = useState(false);
  const [frameFailed, setFrameFailed] = useState(false);
  const lastFrame = frameFailed ? undefined : subject?.lastFrameUrl;
  useEffect(() => {
    if (!subject) return;
    let alive = true;
    const taking = need === 'card' || !lastFrame;
    void (taking ? stillOf(subject) : storedStill(subject.key)).then((found) => {
      if (!alive) return;
      if (found === 'gone') setGone(true);
      else if (found) setRecord(found);
    });
    return () => void (alive = false);
  }, [subject?.key, subject?.url, need, lastFrame]);
  // A kept last frame whose signed address expired falls back to a taken still.
  useEffect(() => {
    if (!lastFrame || typeof Image !== 'function') return;
    const probe = new Image();
    probe.onerror = () => setFrameFailed(true);
    probe.src = lastFrame;
    return () => void (probe.onerror = null);
  }, [lastFrame]);
  return { poster: lastFrame ?? record?.head, head: record?.head, tail: lastFrame ?? record?.tail, duration: record?.duration, gone };
}
