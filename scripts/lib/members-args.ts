/**
 * The pure part of `npm run members` (scripts/members.ts): its arguments, checked with
 * `node:util` parseArgs (strict) and the same bounds the proxy applies, and how budgets and usage
 * reports are printed. No I/O here, so that all of it is tested fast.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  formatMoney,
  fromMicros,
  MAX_RUNNING_MAX,
  MONEY_MAX,
  PERIODS,
  REPORT_DAYS_MAX,
  toMicros,
  USAGE_COLUMNS,
  usageTotals,
  type BudgetState,
  type MemberBudgetChange,
  type MemberBudgetState,
  type MemberProfile,
  type MemberScope,
  type MemberScopeChange,
  type Period,
  type TeamBudgetChange,
  type UsageRow,
} from '../../shared';

/** A mistake in the arguments: one line naming the argument; the CLI adds its usage text. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type UsageQuery = { from?: string; to?: string };

export type MembersCommand =
  | { command: 'help' }
  | { command: 'add'; name: string; email?: string }
  | { command: 'list' }
  | { command: 'revoke'; id: string }
  | { command: 'rotate'; id: string }
  /** `change` undefined: show the budget. */
  | { command: 'budget'; id: string; change?: MemberBudgetChange }
  | { command: 'team-budget'; change?: TeamBudgetChange }
  /** `change` undefined: show the scope. */
  | { command: 'scope'; id: string; change?: MemberScopeChange }
  | { command: 'email'; id: string; email: string | null }
  | { command: 'usage'; query: UsageQuery; csv: boolean }
  /** `revoke` undefined: list the member's access keys. */
  | { command: 'access-keys'; id: string; revoke?: string };

type Options = NonNullable<ParseArgsConfig['options']>;

interface Spec {
  /** Positional names; the first `required` of them must be given. */
  positionals: string[];
  required: number;
  options: Options;
}

const PERIOD_OPTION = { period: { type: 'string' } } as const satisfies Options;
const SPECS: Record<Exclude<MembersCommand['command'], 'help'>, Spec> = {
  add: { positionals: ['NAME'], required: 1, options: { email: { type: 'string' } } },
  list: { positionals: [], required: 0, options: {} },
  revoke: { positionals: ['ID'], required: 1, options: {} },
  rotate: { positionals: ['ID'], required: 1, options: {} },
  budget: { positionals: ['ID', 'LIMIT'], required: 1, options: { ...PERIOD_OPTION, 'max-running': { type: 'string' } } },
  'team-budget': { positionals: ['LIMIT'], required: 0, options: PERIOD_OPTION },
  scope: { positionals: ['ID'], required: 1, options: { models: { type: 'string' }, expires: { type: 'string' } } },
  email: { positionals: ['ID', 'ADDRESS'], required: 2, options: {} },
  usage: { positionals: [], required: 0, options: { from: { type: 'string' }, to: { type: 'string' }, csv: { type: 'boolean' } } },
  'access-keys': { positionals: ['ID', 'revoke', 'KEYID'], required: 1, options: {} },
};

const isCommand = (name: string): name is keyof typeof SPECS => Object.hasOwn(SPECS, name);
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;
const quoted = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** The command line after `npm run members --`, checked: the command and its values, or a UsageError. */
export function parseMembersArgs(argv: readonly string[], now = Date.now()): MembersCommand {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('No command given.');
  if (command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (!isCommand(command)) throw new UsageError(command.startsWith('-') ? `Unknown option ${quoted(command)}: give a command first.` : `Unknown command ${quoted(command)}.`);
  const spec = SPECS[command];
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help' };

  // `--max-running -1`: a negative number is the option's value (to be refused as negative), not an option.
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    if (spec.options[name]?.type === 'string' && i + 1 < rest.length && NEGATIVE_NUMBER.test(rest[i + 1]!)) args.push(`${arg}=${rest[++i]}`);
    else args.push(arg);
  }

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: spec.options, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError(parseArgsProblem(command, spec, error as Error & { code?: string }));
  }
  const { values, positionals } = parsed;
  if (positionals.length > spec.positionals.length) {
    const extra = positionals.slice(spec.positionals.length).map(quoted).join(' ');
    throw new UsageError(`${command}: unexpected argument${positionals.length - spec.positionals.length > 1 ? 's' : ''} ${extra}.`);
  }
  const missing = spec.positionals.slice(positionals.length, spec.required);
  if (missing.length) throw new UsageError(`${command} needs ${missing.join(' and ')}${missing.includes('ID') ? ' (see: npm run members -- list)' : ''}.`);

  const str = (name: string) => values[name] as string | undefined;
  switch (command) {
    case 'add': {
      const name = positionals[0]!.trim();
      if (!name) throw new UsageError('NAME must not be empty.');
      const email = str('email') === undefined ? null : parseEmail(str('email')!, '--email');
      return email === null ? { command, name } : { command, name, email };
    }
    case 'scope': {
      const change: MemberScopeChange = {};
      if (str('models') !== undefined) change.models = parseModels(str('models')!);
      if (str('expires') !== undefined) change.expiresAt = parseExpires(str('expires')!);
      const id = memberId(positionals[0]!);
      return Object.keys(change).length ? { command, id, change } : { command, id };
    }
    case 'email':
      return { command, id: memberId(positionals[0]!), email: positionals[1]!.trim().toLowerCase() === 'none' ? null : parseEmail(positionals[1]!, 'ADDRESS') };
    case 'list':
      return { command };
    case 'revoke':
    case 'rotate':
      return { command, id: memberId(positionals[0]!) };
    case 'budget': {
      const change: MemberBudgetChange = {};
      if (positionals[1] !== undefined) change.limit = parseLimit(positionals[1], 'LIMIT');
      if (str('period') !== undefined) change.period = parsePeriod(str('period')!);
      if (str('max-running') !== undefined) change.maxRunning = parseMaxRunning(str('max-running')!);
      const id = memberId(positionals[0]!);
      return Object.keys(change).length ? { command, id, change } : { command, id };
    }
    case 'team-budget': {
      const change: TeamBudgetChange = {};
      if (positionals[0] !== undefined) change.limit = parseLimit(positionals[0], 'LIMIT');
      if (str('period') !== undefined) change.period = parsePeriod(str('period')!);
      return Object.keys(change).length ? { command, change } : { command };
    }
    case 'usage':
      return { command, query: usageQuery(str('from'), str('to'), now), csv: values.csv === true };
    case 'access-keys': {
      const id = memberId(positionals[0]!);
      if (positionals[1] === undefined) return { command, id };
      if (positionals[1] !== 'revoke') throw new UsageError(`access-keys: unexpected argument ${quoted(positionals[1])} (access-keys ID, or access-keys ID revoke KEYID).`);
      const keyId = positionals[2]?.trim();
      if (!keyId) throw new UsageError('access-keys ID revoke needs KEYID (see: npm run members -- access-keys ID).');
      return { command, id, revoke: keyId };
    }
  }
}

/** parseArgs' own messages, reworded to one line that names the argument. */
function parseArgsProblem(command: string, spec: Spec, error: Error & { code?: string }): string {
  const named = /'([^']+)'/.exec(error.message)?.[1]?.replace(/ <value>$/, '') ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      if (NEGATIVE_NUMBER.test(named)) {
        const numeric = spec.positionals.find((p) => p === 'LIMIT');
        return numeric ? `${numeric}: must not be negative (got ${named}).` : `${command}: unexpected argument ${quoted(named)}.`;
      }
      const known = Object.keys(spec.options).map((o) => `--${o}`);
      return `${command}: unknown option ${quoted(named)}${known.length ? ` (options: ${known.join(', ')})` : ' (it takes no options)'}.`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(error.message) ? `${named} takes no value.` : `${named} needs a value.`;
    default:
      return `${command}: ${error.message.split('\n')[0]}`;
  }
}

function memberId(raw: string): string {
  const id = raw.trim();
  if (!id) throw new UsageError('ID must not be empty (see: npm run members -- list).');
  return id;
}

/** An email address (the proxy checks it fully), or a UsageError naming `name`. */
function parseEmail(raw: string, name: string): string {
  const text = raw.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) || text.length > 254) throw new UsageError(`${name}: must be an email address (got ${quoted(raw)}).`);
  return text;
}

/** `--models`: ids separated by commas, `all` (null: every model) or `none` (no model). */
export function parseModels(raw: string): string[] | null {
  const text = raw.trim().toLowerCase();
  if (text === 'all') return null;
  if (text === 'none') return [];
  const ids = raw.split(',').map((id) => id.trim()).filter(Boolean);
  const bad = ids.find((id) => !/^[\w.:-]{1,128}$/.test(id));
  if (!ids.length || bad !== undefined) throw new UsageError(`--models: model ids separated by commas, all or none (got ${quoted(bad ?? raw)}).`);
  return [...new Set(ids)];
}

/** `--expires`: a date (YYYY-MM-DD: from 00:00 UTC that day), unix seconds, or `never` (null). */
export function parseExpires(raw: string): number | null {
  const text = raw.trim();
  if (text.toLowerCase() === 'never') return null;
  if (/^\d{1,12}$/.test(text)) return Number(text);
  return Date.parse(`${parseDay(text, '--expires')}T00:00:00Z`) / 1000;
}

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** A money limit: a decimal number from 0 to MONEY_MAX with at most six decimals, or `none` (null: no limit). */
export function parseLimit(raw: string, name = 'LIMIT'): number | null {
  const text = raw.trim();
  if (text.toLowerCase() === 'none') return null;
  if (text.startsWith('-') && DECIMAL.test(text.slice(1))) throw new UsageError(`${name}: must not be negative (got ${text}).`);
  if (!DECIMAL.test(text)) throw new UsageError(`${name}: must be an amount such as 50 or 12.5, or none (got ${quoted(raw)}).`);
  if ((text.split('.')[1] ?? '').length > 6) throw new UsageError(`${name}: at most six decimals (got ${text}).`);
  const value = Number(text);
  if (value > MONEY_MAX) throw new UsageError(`${name}: must be at most ${MONEY_MAX} (got ${text}).`);
  return value;
}

export function parsePeriod(raw: string): Period {
  const period = PERIODS.find((p) => p === raw.trim().toLowerCase());
  if (!period) throw new UsageError(`--period: must be ${PERIODS.join(' or ')} (got ${quoted(raw)}).`);
  return period;
}

/** `--max-running`: a whole number from 0 to MAX_RUNNING_MAX, or `none` (null: no limit). */
export function parseMaxRunning(raw: string): number | null {
  const text = raw.trim();
  if (text.toLowerCase() === 'none') return null;
  if (/^-\d+$/.test(text)) throw new UsageError(`--max-running: must not be negative (got ${text}).`);
  if (!/^\d{1,7}$/.test(text)) throw new UsageError(`--max-running: must be a whole number or none (got ${quoted(raw)}).`);
  const value = Number(text);
  if (value > MAX_RUNNING_MAX) throw new UsageError(`--max-running: must be at most ${MAX_RUNNING_MAX} (got ${text}).`);
  return value;
}

/** A scope in one line: the models (or all) and the expiry (or never), dates in UTC. */
export function scopeLine(scope: MemberScope | undefined): string {
  if (!scope) return '';
  const models = scope.models === null ? 'all models' : scope.models.length ? scope.models.join(', ') : 'no model';
  const expires = scope.expiresAt === null ? 'never expires' : `expires ${new Date(scope.expiresAt * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  return `${models}; ${expires}`;
}

const DAY_MS = 86_400_000;

/** A calendar date as YYYY-MM-DD (UTC), checked to exist. */
export function parseDay(raw: string, name: string): string {
  const text = raw.trim();
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw new UsageError(`${name}: must be a real date as YYYY-MM-DD (got ${quoted(raw)}).`);
  }
  return text;
}

/**
 * `--from` / `--to`, checked against each other with the proxy's defaults for the one left out
 * (to: today, from: the first of this month, both UTC); only the dates given are sent.
 */
export function usageQuery(fromRaw: string | undefined, toRaw: string | undefined, now = Date.now()): UsageQuery {
  const query: UsageQuery = {};
  if (fromRaw !== undefined) query.from = parseDay(fromRaw, '--from');
  if (toRaw !== undefined) query.to = parseDay(toRaw, '--to');
  const today = new Date(now).toISOString().slice(0, 10);
  const to = query.to ?? today;
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  if (from > to) {
    throw new UsageError(
      query.from === undefined
        ? `--to: ${to} is before the default --from (${from}, the first of this month); give --from too.`
        : query.to === undefined
          ? `--from: ${from} is after the default --to (today, ${to}).`
          : `--from: ${from} is after --to (${to}).`,
    );
  }
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > REPORT_DAYS_MAX) throw new UsageError(`--from: a report covers at most ${REPORT_DAYS_MAX} days (${from} to ${to} is ${days}).`);
  return query;
}

// --- printing ---

const money = (amount: number, currency: string) => formatMoney(toMicros(amount), currency);
const PERIOD_WORDS: Record<Period, string> = { month: 'per calendar month (UTC)', total: 'in total (never resets)' };

/** A budget for people: one line per figure. `title` heads it. */
export function formatBudget(title: string, state: BudgetState | MemberBudgetState): string {
  const { currency } = state;
  const lines: [string, string][] = [
    ['Limit', state.limit === null ? 'none (no limit)' : `${money(state.limit, currency)} ${PERIOD_WORDS[state.period]}`],
    ['Period', state.period],
    ['Spent', money(state.spent, currency)],
    ['Reserved', `${money(state.reserved, currency)} (tasks still running)`],
    ['Remaining', state.remaining === null ? 'unlimited' : money(state.remaining, currency)],
  ];
  if ('running' in state) {
    lines.push(['Running', state.maxRunning === null ? `${state.running} (no limit on running tasks)` : `${state.running} / ${state.maxRunning} at most at once`]);
  }
  lines.push(['Currency', currency]);
  const width = Math.max(...lines.map(([label]) => label.length));
  return [title, ...lines.map(([label, value]) => `  ${`${label}:`.padEnd(width + 1)}  ${value}`)].join('\n');
}

/** How `npm run members -- list` names a member: id -> name, with the id when two share a name. */
export function memberNames(members: readonly Omit<MemberProfile, 'scope'>[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const m of members) count.set(m.name, (count.get(m.name) ?? 0) + 1);
  return new Map(members.map((m) => [m.id, count.get(m.name)! > 1 ? `${m.name} (${m.id})` : m.name]));
}

const COLUMNS = USAGE_COLUMNS;
const NUMERIC = new Set<string>(['tasks', 'completed', 'failed', 'seconds', 'cost', 'tokens']);

/** A usage report as aligned columns, member ids turned into names, and a total line. */
export function formatUsage(report: { currency: string; from: string; to: string; rows: readonly UsageRow[] }, names: ReadonlyMap<string, string>): string {
  const heading = `Usage from ${report.from} to ${report.to} (UTC days; cost in ${report.currency}, of completed tasks):`;
  if (!report.rows.length) return `${heading}\nNo tasks in this period.`;
  const amount = (cost: number) => formatMoney(toMicros(cost), '').trimEnd();
  const cells = (row: Omit<UsageRow, 'member'> & { member: string }) =>
    COLUMNS.map((c) => (c === 'cost' ? amount(row.cost) : String(row[c])));
  const body = report.rows.map((row) => cells({ ...row, member: names.get(row.member) ?? row.member }));
  const total = usageTotals(report.rows);
  const totalCells = cells({ day: 'total', member: '', model: '', ...total });
  const header = COLUMNS.map((c) => (c === 'cost' ? `cost (${report.currency})` : c));
  const table = [header, ...body, totalCells];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => (NUMERIC.has(COLUMNS[i]!) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [heading, line(header), rule, ...body.map(line), rule, line(totalCells)].join('\n');
}
