import type { Period } from '../../../../shared';

/** Budget periods: calendar months in UTC, or all time. A task counts in the period it was created in. */

/** `YYYY-MM` of a time, in UTC. */
export const monthKey = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** `YYYY-MM-DD` of a time, in UTC. */
export const dayKey = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The totals row a budget of `period` reads at `ms`. */
export const periodKey = (period: Period, ms: number): string => (period === 'month' ? monthKey(ms) : 'total');

/** The totals rows one charge adds to: its month and all time. */
export const periodKeys = (ms: number): [string, string] => [monthKey(ms), 'total'];
