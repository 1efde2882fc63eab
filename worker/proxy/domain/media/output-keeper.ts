import type { MediaEnv } from './media-env';
import { objectKey } from './media-ids';

/**
 * Copies a completed task's video (or its last frame) from the service's link into the media
 * store, streamed (the link's Content-Length lets R2 take the body as it arrives). The member's
 * object decides when to try and how often (domain/tracking/task-tracker.ts); this only says how an
 * attempt went.
 */

/** What is kept of a task: its video, or its last frame (`return_last_frame`). */
export type KeptKind = 'output' | 'frame';
const WHAT: Record<KeptKind, { name: string; type: string }> = {
  output: { name: 'video', type: 'video/mp4' },
  frame: { name: 'last frame', type: 'image/png' },
};

export type KeepAttempt = { ok: true; size: number; contentType: string } | { ok: false; retry: boolean; message: string };

/** Time for one copy: a 50 MB video at a few MB/s, with room to spare. */
const COPY_TIMEOUT_MS = 5 * 60_000;

export async function copyOutput(env: MediaEnv, member: string, taskId: string, url: string, keptUntil: number, kind: KeptKind = 'output'): Promise<KeepAttempt> {
  const what = WHAT[kind].name;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(COPY_TIMEOUT_MS) });
  } catch {
    return { ok: false, retry: true, message: `The service's ${what} link could not be reached.` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    // 5xx and 429 may pass; a link that is gone or refused stays so.
    const retry = response.status >= 500 || response.status === 429;
    return { ok: false, retry, message: `The service's ${what} link answered HTTP ${response.status}.` };
  }
  const length = Number(response.headers.get('content-length'));
  if (!response.body || !Number.isSafeInteger(length) || length <= 0) {
    await response.body?.cancel();
    return { ok: false, retry: false, message: `The service's ${what} link sent no Content-Length, so the copy could not be streamed.` };
  }
  const contentType = response.headers.get('content-type') ?? WHAT[kind].type;
  const fixed = new FixedLengthStream(length);
  const key = objectKey({ kind, member, name: taskId });
  const [piped, stored] = await Promise.allSettled([
    response.body.pipeTo(fixed.writable),
    env.MEDIA.put(key, fixed.readable, { httpMetadata: { contentType }, customMetadata: { member, task: taskId, keptUntil: String(keptUntil) } }),
  ]);
  if (piped.status === 'rejected' || stored.status === 'rejected') {
    await env.MEDIA.delete(key).catch(() => undefined);
    return { ok: false, retry: true, message: 'The copy was interrupted.' };
  }
  return { ok: true, size: length, contentType };
}

/** Deletes a kept output (or its last frame); answers its size, or null when there was none. */
export async function deleteOutput(env: MediaEnv, member: string, taskId: string, kind: KeptKind = 'output'): Promise<number | null> {
  const key = objectKey({ kind, member, name: taskId });
  const head = await env.MEDIA.head(key);
  if (!head) return null;
  await env.MEDIA.delete(key);
  return head.size;
}
