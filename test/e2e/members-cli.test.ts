/**
 * `npm run members` (scripts/members.ts) run for real, as a child process, against a proxy and
 * sandbox started once: budgets set and shown (and read back through the admin API), bad
 * arguments refused with exit 1 naming them, and the usage report as a table and as CSV after a
 * task the proxy followed to completion. Argument and printing details: scripts/lib/members-args.test.ts.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from '../../scripts/lib/wrangler-dev';
import { USAGE_COLUMNS, type BudgetState, type MemberBudgetState, type UsageRow } from '../../shared';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../support/sandbox';

let sandbox: Server | undefined;
let proxy: Server | undefined;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Tasks are followed every second, so that the one below is charged within the test.
  proxy = await startProxy(sandbox.url, { TRACK_INTERVAL_SECONDS: '1' });
});

afterAll(async () => {
  await proxy?.stop();
  await sandbox?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run members -- ...args` without npm: node with tsx, PROXY_URL and ADMIN_TOKEN of the test proxy. */
function members(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/members.ts', ...args],
      { cwd: ROOT, env: { ...process.env, PROXY_URL: proxy!.url, ADMIN_TOKEN: TEST_PROXY_SECRETS.ADMIN_TOKEN }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

async function ok(...args: string[]): Promise<string> {
  const run = await members(...args);
  expect(run, `members ${args.join(' ')}`).toMatchObject({ code: 0, stderr: '' });
  return run.stdout;
}

async function admin<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${proxy!.url}${path}`, { ...init, headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}`, 'Content-Type': 'application/json' } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

let memberId = '';
let memberToken = '';

test('budget ID LIMIT sets a member budget, prints it, and the proxy has it', async () => {
  const added = await ok('add', 'CLI Tester');
  const match = /Added member "CLI Tester": (m\S+)\n.*\n(\S+)/.exec(added);
  [memberId, memberToken] = [match?.[1] ?? '', match?.[2] ?? ''];
  expect(memberId).toMatch(/^m[0-9a-f]{16}$/);

  const set = await ok('budget', memberId, '12.5', '--period', 'month', '--max-running', '3');
  expect(set).toContain(`Budget set for "CLI Tester" (${memberId}):`);
  expect(set).toMatch(/Limit:\s+12\.50 CNY per calendar month/);
  expect(set).toMatch(/Spent:\s+0\.00 CNY/);
  expect(set).toMatch(/Remaining:\s+12\.50 CNY/);
  expect(set).toMatch(/Running:\s+0 \/ 3/);
  expect(await admin<MemberBudgetState>(`/admin/members/${memberId}/budget`)).toEqual({
    member: memberId, currency: 'CNY', period: 'month', limit: 12.5, spent: 0, reserved: 0, remaining: 12.5, running: 0, maxRunning: 3,
  });

  // Without LIMIT: shown, unchanged.
  const shown = await ok('budget', memberId);
  expect(shown).toContain(`Budget of "CLI Tester" (${memberId}):`);
  expect(shown).toMatch(/Limit:\s+12\.50 CNY/);

  // Only --period: the limit and maxRunning are kept.
  await ok('budget', memberId, '--period', 'total');
  expect(await admin<MemberBudgetState>(`/admin/members/${memberId}/budget`)).toMatchObject({ period: 'total', limit: 12.5, maxRunning: 3 });
  await ok('budget', memberId, '--period', 'month');
});

test('bad arguments: exit 1, a line naming the argument, then the usage text; nothing changed', async () => {
  const cases: [string[], RegExp][] = [
    [['budget', memberId, '-5'], /^LIMIT: must not be negative/],
    [['budget', memberId, 'lots'], /^LIMIT: must be an amount/],
    [['budget', memberId, '5', '--period', 'week'], /^--period: must be month or total/],
    [['budget', memberId, '5', '--max-running', '1.5'], /^--max-running: must be a whole number/],
    [['budget', memberId, '5', '--max-runing', '2'], /unknown option "--max-runing"/],
    [['budget'], /^budget needs ID/],
    [['usage', '--from', '2026-02-30'], /^--from: must be a real date/],
    [['usage', '--from', '2026-11-20', '--to', '2026-11-01'], /^--from: 2026-11-20 is after --to/],
    [['bogus'], /^Unknown command "bogus"/],
  ];
  for (const [args, message] of cases) {
    const run = await members(...args);
    expect(run.code, args.join(' ')).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0], args.join(' ')).toMatch(message);
    expect(run.stderr).toContain('Usage: npm run members -- <command>');
  }
  expect(await admin<MemberBudgetState>(`/admin/members/${memberId}/budget`)).toMatchObject({ period: 'month', limit: 12.5, maxRunning: 3 });

  // Refused by the proxy: the message, no usage text.
  const unknown = await members('budget', 'm0000000000000000', '5');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/PUT \/admin\/members\/m0000000000000000\/budget: HTTP 404: No member m0000000000000000 exists/);
  expect(unknown.stderr).not.toContain('Usage:');
});

test('team-budget sets and shows the team budget', async () => {
  const set = await ok('team-budget', '100', '--period', 'total');
  expect(set).toMatch(/^Team budget set/);
  expect(set).toMatch(/Limit:\s+100\.00 CNY in total/);
  expect(set).not.toMatch(/Running/);
  expect(await admin<BudgetState>('/admin/budget')).toMatchObject({ currency: 'CNY', period: 'total', limit: 100, remaining: 100 });
  expect(await ok('team-budget')).toMatch(/^Team budget \(all members' tasks together\):\n\s+Limit:\s+100\.00 CNY/);
  await ok('team-budget', 'none');
  expect(await admin<BudgetState>('/admin/budget')).toMatchObject({ limit: null, remaining: null });
});

test('usage: a table with names and totals, --csv as the proxy answers it; budget ID none', async () => {
  // One task of a priced model: 1.0 Pro at 1080p, 5 s: 3.672 CNY once completed.
  const created = await fetch(`${proxy!.url}/v1/video/generations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${memberToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'doubao-seedance-1-0-pro-250528', prompt: 'a kite', duration: 5 }),
  });
  expect(created.status).toBe(200);
  const until = Date.now() + 60_000;
  let rows: UsageRow[] = [];
  while (!(rows[0]?.completed === 1)) {
    if (Date.now() > until) throw new Error(`the task was not charged in time: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 500));
    ({ rows } = await admin<{ rows: UsageRow[] }>('/admin/usage'));
  }

  const table = (await ok('usage')).trimEnd().split('\n');
  expect(table[0]).toMatch(/^Usage from \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} \(UTC days; cost in CNY/);
  expect(table[1]).toMatch(/^day\s+member\s+model\s+tasks\s+completed\s+failed\s+seconds\s+cost \(CNY\)\s+tokens$/);
  expect(table[3]).toMatch(/^\d{4}-\d{2}-\d{2}\s+CLI Tester\s+doubao-seedance-1-0-pro-250528\s+1\s+1\s+0\s+5\s+3\.672\s+\d+$/);
  expect(table.at(-1)).toMatch(/^total\s+1\s+1\s+0\s+5\s+3\.672\s+\d+$/);

  const csv = await ok('usage', '--csv');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe(USAGE_COLUMNS.join(','));
  expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2},${memberId},doubao-seedance-1-0-pro-250528,1,1,0,5,3\\.672,\\d+$`));
  expect(csv.endsWith('\r\n')).toBe(true);

  expect(await ok('usage', '--from', '2020-01-01', '--to', '2020-01-31')).toMatch(/Usage from 2020-01-01 to 2020-01-31 .*\nNo tasks in this period\./);

  // The charge shows in the budget; then both limits off.
  expect(await ok('budget', memberId)).toMatch(/Spent:\s+3\.672 CNY[\s\S]*Remaining:\s+8\.828 CNY/);
  const off = await ok('budget', memberId, 'none', '--max-running', 'none');
  expect(off).toMatch(/Limit:\s+none/);
  expect(off).toMatch(/Remaining:\s+unlimited/);
  expect(off).toMatch(/Running:\s+0 \(no limit/);
  expect(await admin<MemberBudgetState>(`/admin/members/${memberId}/budget`)).toMatchObject({ limit: null, remaining: null, maxRunning: null, period: 'month', spent: 3.672 });
});

test('identity: add with an email, set and show a scope, clear the email (docs/identity.md)', async () => {
  const added = await ok('add', 'Scoped Member', '--email', 'scoped@example.com');
  const memberId = /Added member "Scoped Member": (m[0-9a-f]{16})/.exec(added)![1]!;
  expect(await ok('scope', memberId, '--models', 'doubao-seedance-1-0-pro-250528', '--expires', '2099-12-31')).toBe(
    `Scope set for ${memberId}: doubao-seedance-1-0-pro-250528; expires 2099-12-31 00:00 UTC\n`,
  );
  expect(await ok('scope', memberId)).toBe(`Scope of ${memberId}: doubao-seedance-1-0-pro-250528; expires 2099-12-31 00:00 UTC\n`);
  const { members: listed } = await admin<{ members: { id: string; email?: string; scope: unknown }[] }>('/admin/members');
  expect(listed.find((m) => m.id === memberId)).toMatchObject({ email: 'scoped@example.com', scope: { models: ['doubao-seedance-1-0-pro-250528'], expiresAt: 4102358400 } });
  expect(await ok('email', memberId, 'none')).toBe(`Scoped Member (${memberId}) has no email now.\n`);
  const refused = await members('scope', memberId, '--expires', 'soon');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^--expires: must be a real date/);
});
