import type { UsageView } from '@@/shared';

/** The example answer of `GET /proxy/usage`: a member limited to 100 CNY a month, an unlimited team, an 80 % alert, 12 MB of kept videos. */
export const USAGE: UsageView = {
  currency: 'CNY',
  period: 'month',
  limit: 100,
  spent: 12.5,
  reserved: 3.672,
  remaining: 83.828,
  running: 1,
  maxRunning: 3,
  team: { period: 'month', limit: null, spent: 40, reserved: 3.672, remaining: null },
  alerts: [{ scope: 'member', member: 'm_x', threshold: 80, periodKey: '2026-11', limit: 100, spent: 81, at: '2026-11-23T10:00:00.000Z' }],
  storage: { uploads: 0, outputs: 12_000_000 },
};

/** USAGE with `over` applied (its team's fields merged). */
export const usage = (over: Partial<Omit<UsageView, 'team'>> & { team?: Partial<UsageView['team']> } = {}): UsageView => ({
  ...USAGE,
  ...over,
  team: { ...USAGE.team, ...over.team },
});
