/** Delay before attempt `attempts + 1` of a queued create: 2 s doubling to 5 minutes, with jitter. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(2000 * 2 ** attempts, 5 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}
