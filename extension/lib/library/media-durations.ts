/**
 * Durations of video and audio, read from the `loadedmetadata` of an element shown in the grid: the
 * service's listing carries none. Kept in memory only (a closed popup forgets them), by address,
 * at most MAX_KEPT (the oldest dropped first).
 */
export const MAX_KEPT = 2000;

const seconds = new Map<string, number>();

export function knownDuration(url: string): number | undefined {
  return seconds.get(url);
}

/** Remembers a finite, positive duration (a live stream's Infinity or a NaN is not one). */
export function rememberDuration(url: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) return;
  seconds.delete(url);
  seconds.set(url, value);
  if (seconds.size > MAX_KEPT) seconds.delete(seconds.keys().next().value!);
}

/** `0:07`, `12:34`, `1:02:03`. */
export function formatDuration(value: number): string {
  const total = Math.max(0, Math.round(value));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
