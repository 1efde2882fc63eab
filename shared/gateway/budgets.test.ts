import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { USAGE_ALERTS_READ_MAX, usageViewSchema, type UsageView } from './budgets';

const VIEW: UsageView = {
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
  storage: { uploads: 1024, outputs: 5_000_000 },
};

const read = (value: unknown) => {
  const result = v.safeParse(usageViewSchema, value);
  return result.success ? result.output : null;
};

describe('usageViewSchema: GET /proxy/usage as read', () => {
  it('reads the proxy’s answer as it is, ignoring unknown fields', () => {
    expect(read(VIEW)).toEqual(VIEW);
    const later = read({ ...VIEW, later: true, team: { ...VIEW.team, extra: 1 }, storage: { ...VIEW.storage, assets: 3 } });
    expect(later).toEqual(VIEW);
    expect(later).not.toHaveProperty('later');
    expect(later!.team).not.toHaveProperty('extra');
  });

  it('reads an older proxy’s answer: no storage is nothing stored, no alerts none', () => {
    const { storage: _s, alerts: _a, ...older } = VIEW;
    expect(read(older)).toEqual({ ...VIEW, alerts: [], storage: { uploads: 0, outputs: 0 } });
    expect(read({ ...VIEW, alerts: null })).toMatchObject({ alerts: [] });
  });

  it('leaves malformed alerts out, reads at most 50, and a team alert’s member as null', () => {
    const team = { scope: 'team', threshold: 100, periodKey: 'total', limit: 500, spent: 501, at: '2026-11-23T10:00:00.000Z' };
    const answer = { ...VIEW, alerts: [...VIEW.alerts, { scope: 'member', threshold: 50 }, 'x', null, { ...team, member: 7 }, { ...VIEW.alerts[0], spent: Infinity }] };
    expect(read(answer)!.alerts).toEqual([...VIEW.alerts, { ...team, member: null }]);
    const many = Array.from({ length: USAGE_ALERTS_READ_MAX + 10 }, () => VIEW.alerts[0]);
    expect(read({ ...VIEW, alerts: many })!.alerts).toHaveLength(USAGE_ALERTS_READ_MAX);
  });

  it('refuses an answer whose budget, team or storage cannot be read', () => {
    for (const wrong of [
      { remaining: '83' },
      { period: 'week' },
      { team: null },
      { team: { ...VIEW.team, remaining: 'none' } },
      { currency: '' },
      { currency: 'X'.repeat(17) },
      { spent: Number.NaN },
      { running: 1.5 },
      { running: -1 },
      { maxRunning: undefined },
      { storage: { uploads: -1, outputs: 0 } },
      { storage: { uploads: 0 } },
    ]) {
      expect(read({ ...VIEW, ...wrong }), JSON.stringify(wrong)).toBeNull();
    }
    expect(read({ hello: 'world' })).toBeNull();
    expect(read(null)).toBeNull();
  });
});
