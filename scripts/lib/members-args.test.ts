/** `npm run members` arguments and printing (scripts/lib/members-args.ts); the CLI against a real proxy is test/e2e/members-cli.test.ts. */
import { describe, expect, test } from 'vitest';
import { MAX_RUNNING_MAX, MONEY_MAX, type MemberBudgetState, type UsageRow } from '../../shared';
import { usageTotals } from '../../shared';
import { formatBudget, formatUsage, memberNames, parseMembersArgs, UsageError } from './members-args';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const parse = (...argv: string[]) => parseMembersArgs(argv, NOW);

/** The UsageError `argv` raises: its one-line message. */
function refusal(...argv: string[]): string {
  try {
    parse(...argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('parseMembersArgs', () => {
  test('the existing commands', () => {
    expect(parse('add', 'Alice Liddell')).toEqual({ command: 'add', name: 'Alice Liddell' });
    expect(parse('list')).toEqual({ command: 'list' });
    expect(parse('revoke', 'm1')).toEqual({ command: 'revoke', id: 'm1' });
    expect(parse('rotate', 'm1')).toEqual({ command: 'rotate', id: 'm1' });
    expect(parse('help')).toEqual({ command: 'help' });
    expect(parse('budget', 'm1', '--help')).toEqual({ command: 'help' });
    expect(refusal()).toMatch(/No command/);
    expect(refusal('frobnicate')).toMatch(/Unknown command "frobnicate"/);
    expect(refusal('add')).toMatch(/add needs NAME/);
    expect(refusal('add', '  ')).toMatch(/NAME must not be empty/);
    expect(refusal('revoke')).toMatch(/revoke needs ID/);
    expect(refusal('list', 'extra')).toMatch(/list: unexpected argument "extra"/);
    expect(refusal('rotate', 'm1', '--period', 'month')).toMatch(/rotate: unknown option "--period" \(it takes no options\)/);
  });

  test('identity: add with an email, scope and email (docs/identity.md)', () => {
    expect(parse('add', 'Ada', '--email', 'ada@example.com')).toEqual({ command: 'add', name: 'Ada', email: 'ada@example.com' });
    expect(refusal('add', 'Ada', '--email', 'ada')).toMatch(/^--email: must be an email address/);
    expect(parse('scope', 'm1')).toEqual({ command: 'scope', id: 'm1' });
    expect(parse('scope', 'm1', '--models', 'a-1, b.2,a-1')).toEqual({ command: 'scope', id: 'm1', change: { models: ['a-1', 'b.2'] } });
    expect(parse('scope', 'm1', '--models', 'all', '--expires', 'never')).toEqual({ command: 'scope', id: 'm1', change: { models: null, expiresAt: null } });
    expect(parse('scope', 'm1', '--models', 'none')).toEqual({ command: 'scope', id: 'm1', change: { models: [] } });
    expect(parse('scope', 'm1', '--expires', '2026-12-31')).toEqual({ command: 'scope', id: 'm1', change: { expiresAt: Date.parse('2026-12-31T00:00:00Z') / 1000 } });
    expect(parse('scope', 'm1', '--expires', '1798761600')).toEqual({ command: 'scope', id: 'm1', change: { expiresAt: 1798761600 } });
    expect(refusal('scope', 'm1', '--expires', '2026-02-30')).toMatch(/^--expires: must be a real date/);
    expect(refusal('scope', 'm1', '--models', 'bad model')).toMatch(/^--models: model ids/);
    expect(parse('email', 'm1', 'Ada@Example.com')).toEqual({ command: 'email', id: 'm1', email: 'Ada@Example.com' });
    expect(parse('email', 'm1', 'none')).toEqual({ command: 'email', id: 'm1', email: null });
    expect(refusal('email', 'm1')).toMatch(/email needs ADDRESS/);
  });

  test('access-keys: list a member\'s keys, or revoke one', () => {
    expect(parse('access-keys', 'm1')).toEqual({ command: 'access-keys', id: 'm1' });
    expect(parse('access-keys', 'm1', 'revoke', 'k0123456789abcdef')).toEqual({ command: 'access-keys', id: 'm1', revoke: 'k0123456789abcdef' });
    expect(refusal('access-keys')).toMatch(/access-keys needs ID/);
    expect(refusal('access-keys', 'm1', 'delete', 'k1')).toMatch(/^access-keys: unexpected argument "delete"/);
    expect(refusal('access-keys', 'm1', 'revoke')).toMatch(/access-keys ID revoke needs KEYID/);
    expect(refusal('access-keys', 'm1', 'revoke', 'k1', 'k2')).toMatch(/unexpected argument "k2"/);
    expect(refusal('access-keys', 'm1', '--all')).toMatch(/unknown option "--all" \(it takes no options\)/);
  });

  test('budget: show, or set the fields given', () => {
    expect(parse('budget', 'm1')).toEqual({ command: 'budget', id: 'm1' });
    expect(parse('budget', 'm1', '12.5')).toEqual({ command: 'budget', id: 'm1', change: { limit: 12.5 } });
    expect(parse('budget', 'm1', '50', '--period', 'total', '--max-running', '3')).toEqual({
      command: 'budget',
      id: 'm1',
      change: { limit: 50, period: 'total', maxRunning: 3 },
    });
    expect(parse('budget', '--period=month', 'm1', 'none', '--max-running', 'none')).toEqual({
      command: 'budget',
      id: 'm1',
      change: { limit: null, period: 'month', maxRunning: null },
    });
    expect(parse('budget', 'm1', '--max-running', '0')).toEqual({ command: 'budget', id: 'm1', change: { maxRunning: 0 } });
    expect(parse('budget', 'm1', '0.000001')).toMatchObject({ change: { limit: 0.000001 } });
    expect(parse('budget', 'm1', String(MONEY_MAX))).toMatchObject({ change: { limit: MONEY_MAX } });
    expect(parse('budget', 'm1', '1', '--max-running', String(MAX_RUNNING_MAX))).toMatchObject({ change: { maxRunning: MAX_RUNNING_MAX } });
  });

  test('budget: every bad argument is named', () => {
    expect(refusal('budget')).toMatch(/budget needs ID/);
    expect(refusal('budget', 'm1', '-5')).toBe('LIMIT: must not be negative (got -5).');
    expect(refusal('budget', 'm1', '--', '-5')).toBe('LIMIT: must not be negative (got -5).');
    expect(refusal('budget', 'm1', 'abc')).toMatch(/^LIMIT: must be an amount/);
    expect(refusal('budget', 'm1', '1e3')).toMatch(/^LIMIT:/);
    expect(refusal('budget', 'm1', 'Infinity')).toMatch(/^LIMIT:/);
    expect(refusal('budget', 'm1', '1.0000001')).toMatch(/^LIMIT: at most six decimals/);
    expect(refusal('budget', 'm1', String(MONEY_MAX + 1))).toMatch(/^LIMIT: must be at most/);
    expect(refusal('budget', 'm1', '5', '6')).toMatch(/unexpected argument "6"/);
    expect(refusal('budget', 'm1', '5', '--period', 'week')).toMatch(/^--period: must be month or total \(got "week"\)/);
    expect(refusal('budget', 'm1', '5', '--period')).toBe('--period needs a value.');
    expect(refusal('budget', 'm1', '5', '--max-running', '2.5')).toMatch(/^--max-running: must be a whole number/);
    expect(refusal('budget', 'm1', '5', '--max-running', '-1')).toBe('--max-running: must not be negative (got -1).');
    expect(refusal('budget', 'm1', '5', '--max-running', String(MAX_RUNNING_MAX + 1))).toMatch(/^--max-running: must be at most/);
    expect(refusal('budget', 'm1', '5', '--maxrunning', '2')).toMatch(/budget: unknown option "--maxrunning" \(options: --period, --max-running\)/);
  });

  test('team-budget', () => {
    expect(parse('team-budget')).toEqual({ command: 'team-budget' });
    expect(parse('team-budget', '1000', '--period', 'month')).toEqual({ command: 'team-budget', change: { limit: 1000, period: 'month' } });
    expect(parse('team-budget', '--period', 'total')).toEqual({ command: 'team-budget', change: { period: 'total' } });
    expect(refusal('team-budget', '-1')).toMatch(/^LIMIT: must not be negative/);
    expect(refusal('team-budget', '5', '--max-running', '2')).toMatch(/unknown option "--max-running"/);
  });

  test('usage: dates checked locally, only those given sent', () => {
    expect(parse('usage')).toEqual({ command: 'usage', query: {}, csv: false });
    expect(parse('usage', '--csv', '--from', '2026-11-01', '--to', '2026-11-23')).toEqual({ command: 'usage', query: { from: '2026-11-01', to: '2026-11-23' }, csv: true });
    expect(parse('usage', '--from', '2026-02-01')).toEqual({ command: 'usage', query: { from: '2026-02-01' }, csv: false });
    expect(refusal('usage', '--from', '2026-02-30')).toMatch(/^--from: must be a real date as YYYY-MM-DD \(got "2026-02-30"\)/);
    expect(refusal('usage', '--to', '23.11.2026')).toMatch(/^--to: must be a real date/);
    expect(refusal('usage', '--from', '2026-11-20', '--to', '2026-11-01')).toBe('--from: 2026-11-20 is after --to (2026-11-01).');
    expect(refusal('usage', '--from', '2026-12-01')).toMatch(/^--from: 2026-12-01 is after the default --to \(today, 2026-11-23\)/);
    expect(refusal('usage', '--to', '2026-10-31')).toMatch(/^--to: 2026-10-31 is before the default --from \(2026-11-01/);
    expect(refusal('usage', '--from', '2025-01-01', '--to', '2026-01-02')).toMatch(/^--from: a report covers at most 366 days/);
    expect(refusal('usage', '--csv=yes')).toBe('--csv takes no value.');
    expect(refusal('usage', '--form', '2026-11-01')).toMatch(/unknown option "--form"/);
    expect(refusal('usage', 'november')).toMatch(/usage: unexpected argument "november"/);
  });
});

const budget: MemberBudgetState = { member: 'm1', currency: 'CNY', period: 'month', limit: 12.5, spent: 3.672, reserved: 0.0864, remaining: 8.7416, running: 1, maxRunning: 3 };

describe('formatBudget', () => {
  test('a member budget: each figure with the currency', () => {
    const text = formatBudget('Budget of "Alice" (m1):', budget);
    expect(text.split('\n')[0]).toBe('Budget of "Alice" (m1):');
    expect(text).toMatch(/Limit:\s+12\.50 CNY per calendar month \(UTC\)/);
    expect(text).toMatch(/Spent:\s+3\.672 CNY/);
    expect(text).toMatch(/Reserved:\s+0\.0864 CNY/);
    expect(text).toMatch(/Remaining:\s+8\.7416 CNY/);
    expect(text).toMatch(/Running:\s+1 \/ 3 at most at once/);
    expect(text).toMatch(/Currency:\s+CNY/);
  });

  test('no limits; a team budget has no running line', () => {
    const text = formatBudget('Budget of m1:', { ...budget, limit: null, remaining: null, maxRunning: null, period: 'total' });
    expect(text).toMatch(/Limit:\s+none/);
    expect(text).toMatch(/Remaining:\s+unlimited/);
    expect(text).toMatch(/Running:\s+1 \(no limit/);
    const { member: _m, running: _r, maxRunning: _x, ...team } = budget;
    expect(formatBudget('Team:', team)).not.toMatch(/Running/);
  });
});

const row = (over: Partial<UsageRow>): UsageRow => ({ day: '2026-11-02', member: 'm1', model: 'doubao-seedance-1-0-pro-250528', tasks: 1, completed: 1, failed: 0, seconds: 5, cost: 0.1, tokens: 100, ...over });

describe('usage', () => {
  test('totals sum money in micro-units: no float drift', () => {
    const rows = [row({ cost: 0.1, seconds: 0.1 }), row({ cost: 0.2, seconds: 0.2 }), row({ cost: 3.672, failed: 1, completed: 0, tasks: 2 })];
    expect(0.1 + 0.2 + 3.672).not.toBe(3.972);
    expect(usageTotals(rows)).toEqual({ tasks: 4, completed: 2, failed: 1, seconds: 5.3, cost: 3.972, tokens: 300 });
    expect(usageTotals([])).toEqual({ tasks: 0, completed: 0, failed: 0, seconds: 0, cost: 0, tokens: 0 });
  });

  test('member names: id -> name, with the id when two share a name', () => {
    const names = memberNames([
      { id: 'm1', name: 'Alice', createdAt: '', revoked: false },
      { id: 'm2', name: 'Bob', createdAt: '', revoked: false },
      { id: 'm3', name: 'Bob', createdAt: '', revoked: true },
    ]);
    expect([...names]).toEqual([['m1', 'Alice'], ['m2', 'Bob (m2)'], ['m3', 'Bob (m3)']]);
  });

  test('a table with names, aligned columns and a total line', () => {
    const report = { currency: 'CNY', from: '2026-11-01', to: '2026-11-23', rows: [row({ cost: 0.1 }), row({ member: 'm9', cost: 0.2, seconds: 12.5, tokens: 12345 })] };
    const lines = formatUsage(report, new Map([['m1', 'Alice']])).split('\n');
    expect(lines[0]).toBe('Usage from 2026-11-01 to 2026-11-23 (UTC days; cost in CNY, of completed tasks):');
    expect(lines[1]).toMatch(/^day\s+member\s+model\s+tasks\s+completed\s+failed\s+seconds\s+cost \(CNY\)\s+tokens$/);
    expect(lines[3]).toMatch(/^2026-11-02\s+Alice\s+doubao-seedance/);
    expect(lines[4]).toMatch(/\sm9\s/); // unknown to the directory: its id
    expect(lines.at(-1)).toMatch(/^total\s+2\s+2\s+0\s+17\.5\s+0\.30\s+12445$/);
    // Columns line up: every line of the table is as long as the header, numbers right-aligned.
    const header = lines[1]!;
    for (const line of lines.slice(3, 5)) expect(line.length).toBe(header.length);
    expect(lines.at(-1)!.length).toBe(header.length);
  });

  test('no rows', () => {
    expect(formatUsage({ currency: 'CNY', from: '2026-11-01', to: '2026-11-23', rows: [] }, new Map())).toMatch(/\nNo tasks in this period\.$/);
  });
});
