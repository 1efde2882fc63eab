import { afterEach, describe, expect, it } from 'vitest';
import { usage } from '@/lib/budget/testing/usage-fixture';
import { latestAlert, teamIsTighter, usageSummary } from '@/lib/budget/usage-summary';
import { setLocale } from '@/lib/i18n/translate';

afterEach(() => setLocale('en'));

const alert = (over: Partial<ReturnType<typeof usage>['alerts'][number]>) => ({
  scope: 'member' as const,
  member: 'm_x',
  threshold: 80 as const,
  periodKey: '2026-11',
  limit: 100,
  spent: 81,
  at: '2026-11-23T10:00:00.000Z',
  ...over,
});

describe('the budget line', () => {
  it('a limited member budget: what is left of it this month, and the running tasks against their limit', () => {
    expect(usageSummary(usage({ alerts: [] }))).toEqual({ member: 'Budget: 83.83 CNY left of 100 CNY this month', team: null, running: '1 of 3 running', alert: null });
    expect(usageSummary(usage({ period: 'total', remaining: -2, maxRunning: null, running: 0 })).member).toBe('Budget: 0 CNY left of 100 CNY in total');
  });

  it('an unlimited member budget: what was spent; running tasks without a limit only when some run', () => {
    const summary = usageSummary(usage({ limit: null, remaining: null, maxRunning: null, running: 2, alerts: [] }));
    expect(summary).toEqual({ member: 'Budget: no limit (12.50 CNY spent this month)', team: null, running: '2 running', alert: null });
    expect(usageSummary(usage({ limit: null, remaining: null, maxRunning: null, running: 0 })).running).toBeNull();
  });

  it('the team’s budget when it leaves less than the member’s, or is the only limit', () => {
    const tighter = usage({ team: { limit: 500, spent: 470, reserved: 10, remaining: 20 } });
    expect(teamIsTighter(tighter)).toBe(true);
    expect(usageSummary(tighter).team).toBe('Team: 20 CNY left of 500 CNY this month');
    const looser = usage({ team: { limit: 500, spent: 100, reserved: 0, remaining: 400 } });
    expect(teamIsTighter(looser)).toBe(false);
    expect(usageSummary(looser).team).toBeNull();
    expect(usageSummary(usage({ limit: null, remaining: null, team: { limit: 500, period: 'total', remaining: 400 } })).team).toBe('Team: 400 CNY left of 500 CNY in total');
    expect(usageSummary(usage()).team).toBeNull();
  });

  it('the latest alert, highlighted more once a limit is reached', () => {
    expect(usageSummary(usage()).alert).toEqual({ text: 'Alert: you reached 80% of your budget (81 CNY of 100 CNY).', tone: 'warning' });
    const alerts = [
      alert({ threshold: 80, at: '2026-11-20T00:00:00.000Z' }),
      alert({ scope: 'team', member: null, threshold: 100, limit: 500, spent: 503.5, at: '2026-11-25T00:00:00.000Z' }),
      alert({ threshold: 95, at: '2026-11-22T00:00:00.000Z' }),
    ];
    expect(latestAlert(alerts)).toBe(alerts[1]);
    expect(usageSummary(usage({ alerts })).alert).toEqual({ text: 'Alert: the team reached 100% of its budget (503.50 CNY of 500 CNY).', tone: 'error' });
    const sameMoment = [alert({ threshold: 80 }), alert({ threshold: 95 })];
    expect(latestAlert(sameMoment)?.threshold).toBe(95);
    expect(latestAlert([])).toBeNull();
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(usageSummary(usage())).toMatchObject({ member: '预算：本月剩余 83.83 CNY，共 100 CNY', running: '运行中 1/3' });
  });
});
