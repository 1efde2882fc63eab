import fc from 'fast-check';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `FUZZ_RUNS` as given (empty when unset): cases per fuzzed route. */
    fuzzRuns: string;
    /** `FUZZ_SEED` as given (empty when unset). */
    fuzzSeed: string;
  }
}

/**
 * Runs fuzz cases against one route at a time and checks what every answer must be, whatever the
 * input: never a 5xx; JSON that names the problem (a field or `body` for validation failures), one
 * sentence, small (echoes clipped); an answer within a hang bound; and, for a rejected input, no
 * upstream effect (a caller-provided counter or state summary unchanged). Works in Node and inside
 * workerd (fast-check is plain JavaScript; settings arrive through vitest's `inject`).
 */

export interface FuzzSettings {
  /** Cases per route: `FUZZ_RUNS`, default 40. */
  runs: number;
  /** fast-check seed: `FUZZ_SEED`, default 20261123 (runs are reproducible). */
  seed: number;
  /** An answer slower than this is reported as a hang (a hang detector, not a performance bound). */
  hangMs: number;
}

export const DEFAULT_FUZZ_RUNS = 40;
export const DEFAULT_FUZZ_SEED = 20261123;
export const DEFAULT_HANG_MS = 2000;

const read = (raw: string | undefined, fallback: number, name: string): number => {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
};

/** The settings of this run: FUZZ_RUNS and FUZZ_SEED (through `provide`/`inject`), else the defaults. */
export function fuzzSettings(overrides: Partial<FuzzSettings> = {}): FuzzSettings {
  const provided = (key: 'fuzzRuns' | 'fuzzSeed'): string | undefined => {
    try {
      return inject(key) as string | undefined;
    } catch {
      return undefined;
    }
  };
  return {
    runs: read(provided('fuzzRuns'), DEFAULT_FUZZ_RUNS, 'FUZZ_RUNS'),
    seed: read(provided('fuzzSeed'), DEFAULT_FUZZ_SEED, 'FUZZ_SEED'),
    hangMs: DEFAULT_HANG_MS,
    ...overrides,
  };
}

/**
 * A per-test timeout for fuzzing `routes` routes in one test: `perCaseMs` per case (a generous
 * average; big cases are rare) plus a minute, so a long `npm run fuzz` is not cut by testTimeout.
 */
export const fuzzTimeoutMs = (settings: FuzzSettings = fuzzSettings(), routes = 1, perCaseMs = 250): number =>
  60_000 + settings.runs * routes * perCaseMs;

/** One answer, read whole. */
export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  ms: number;
}

export interface FuzzRoute<T> {
  /** The row of the table, e.g. `POST /api/v3 CreateAsset (signed)`. */
  name: string;
  cases: fc.Arbitrary<T>;
  /** Sends one case and answers the response. */
  send: (input: T) => Promise<Response>;
  /**
   * Reads whatever a rejected request must not change: a count of upstream calls (proxy), a summary
   * of stored state (sandbox). Read before and after each rejected case; the two must be equal.
   */
  upstream?: () => Promise<unknown>;
  /** Runs after each case (e.g. remove an injected fault a valid case installed). */
  afterEach?: (input: T, answer: FuzzAnswer | null) => Promise<void>;
  /** Whether an answer is a rejection. Default: HTTP 4xx, or HTTP 200 with `ResponseMetadata.Error`. */
  rejected?: (answer: FuzzAnswer) => boolean;
  /** Whether a rejection must name a field or the body. Default: 400, 413, 422, and validation codes. */
  namesField?: (answer: FuzzAnswer) => boolean;
  /** More checks of one answer: a problem, or null. */
  check?: (input: T, answer: FuzzAnswer) => string | null;
  /** false for routes that answer HTML (the JSON and message checks are skipped). Default true: every answer is JSON except media (image/, video/, audio/) with a 2xx, and a 3xx with a Location. */
  json?: boolean;
  /** Largest rejection answer in bytes (echoes of caller input are clipped). Default 2048. */
  maxRejectionBytes?: number;
  /** Overrides of the run's settings for this route (`runs`, `hangMs`). */
  settings?: Partial<FuzzSettings>;
}

export interface Violation {
  route: string;
  problem: string;
  /** The case, described briefly (bodies print as kind, size and the first bytes). */
  input: string;
}

export interface RouteStats {
  name: string;
  cases: number;
  /** Answers by HTTP status. */
  byStatus: Record<number, number>;
  /** Rejections answered with HTTP 200 and an error envelope (`/api/v3` validation failures). */
  rejectedAt200: number;
  fiveXX: number;
  hangs: number;
  slowestMs: number;
  violations: Violation[];
}

/** The message of any error shape in use: `/api/v3` envelopes, `/v1` errors, `{error, message}`. */
export function messageOf(json: unknown): string | undefined {
  const j = json as { ResponseMetadata?: { Error?: { Message?: unknown } }; error?: unknown; message?: unknown } | null;
  const candidates = [j?.ResponseMetadata?.Error?.Message, typeof j?.error === 'object' && j.error ? (j.error as { message?: unknown }).message : undefined, j?.message];
  return candidates.find((m): m is string => typeof m === 'string');
}

/** The error code of any error shape in use. */
export function codeOf(json: unknown): string | undefined {
  const j = json as { ResponseMetadata?: { Error?: { Code?: unknown } }; error?: unknown } | null;
  const candidates = [j?.ResponseMetadata?.Error?.Code, typeof j?.error === 'object' && j.error ? (j.error as { code?: unknown }).code : j?.error];
  return candidates.find((c): c is string => typeof c === 'string');
}

const VALIDATION_CODES = new Set(['ValidationError', 'RequestTooLarge', 'invalid_parameter', 'request_too_large']);

const defaultRejected = (a: FuzzAnswer): boolean =>
  (a.status >= 400 && a.status < 500) || Boolean((a.json as { ResponseMetadata?: { Error?: unknown } } | undefined)?.ResponseMetadata?.Error);

const defaultNamesField = (a: FuzzAnswer): boolean => [400, 413, 422].includes(a.status) || VALIDATION_CODES.has(codeOf(a.json) ?? '');

/** `<field>: ...` (the field as the caller wrote it, clipped) or a mention of the body. */
const namesFieldOrBody = (message: string): boolean => {
  const colon = message.indexOf(': ');
  return (colon > 0 && colon <= 120) || /\bbody\b/.test(message);
};

/** One sentence: ends with a full stop (or ! ?), and not with two. */
const isSentence = (message: string): boolean => /[.!?。]$/.test(message) && !/\.\.$/.test(message);

const brief = (value: unknown): string => {
  const text = fc.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text;
};

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The statistics of every fuzzed route of a test file, printed as one table at the end. */
export class FuzzReport {
  readonly routes: RouteStats[] = [];

  constructor(
    readonly title: string,
    readonly settings: FuzzSettings = fuzzSettings(),
  ) {}

  /** Every violation of every route so far. */
  get violations(): Violation[] {
    return this.routes.flatMap((r) => r.violations);
  }

  /** The table: one row per route, columns aligned. */
  table(): string {
    const header = ['route', 'cases', '2xx', '200+Error', '4xx by status', '5xx', 'hangs', 'slowest ms', 'violations'];
    const rows = this.routes.map((r) => {
      const ok = Object.entries(r.byStatus).filter(([s]) => +s < 300).reduce((n, [, c]) => n + c, 0) - r.rejectedAt200;
      const fourXX = Object.entries(r.byStatus)
        .filter(([s]) => +s >= 400 && +s < 500)
        .map(([s, c]) => `${s}×${c}`)
        .join(' ');
      return [r.name, String(r.cases), String(ok), String(r.rejectedAt200), fourXX || '-', String(r.fiveXX), String(r.hangs), String(r.slowestMs), String(r.violations.length)];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
    return [
      `fuzz ${this.title}: ${this.settings.runs} cases per route, seed ${this.settings.seed}, hang bound ${this.settings.hangMs} ms`,
      line(header),
      line(widths.map((w) => '-'.repeat(w))),
      ...rows.map(line),
    ].join('\n');
  }

  print(): void {
    console.log(`\n${this.table()}\n`);
  }
}

const MAX_RECORDED = 10;

/**
 * Fuzzes one route: `settings.runs` cases from `route.cases` with the run's seed, one after another.
 * Never throws for a bad answer: each is recorded as a violation (see `assertNoViolations`), so
 * that the table counts every case. Answers the route's statistics (also added to `report`).
 */
export async function fuzzRoute<T>(report: FuzzReport, route: FuzzRoute<T>): Promise<RouteStats> {
  const settings = { ...report.settings, ...route.settings };
  const stats: RouteStats = { name: route.name, cases: 0, byStatus: {}, rejectedAt200: 0, fiveXX: 0, hangs: 0, slowestMs: 0, violations: [] };
  report.routes.push(stats);
  let violationCount = 0;
  const violate = (input: T, problem: string) => {
    violationCount++;
    if (stats.violations.length < MAX_RECORDED) stats.violations.push({ route: route.name, problem, input: brief(input) });
  };
  const expectJson = route.json !== false;
  const isRejected = route.rejected ?? defaultRejected;
  const mustName = route.namesField ?? defaultNamesField;
  const maxBytes = route.maxRejectionBytes ?? 2048;
  let before = route.upstream ? await route.upstream() : undefined;

  const one = async (input: T): Promise<boolean> => {
    stats.cases++;
    const started = Date.now();
    const pending = (async (): Promise<FuzzAnswer> => {
      const response = await route.send(input);
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json, ms: 0 };
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), settings.hangMs)));
    let answer: FuzzAnswer | null = null;
    try {
      const first = await Promise.race([pending, hang]);
      if (first === 'hang') {
        stats.hangs++;
        violate(input, `no answer within ${settings.hangMs} ms`);
        answer = await pending; // let it finish before the next case, so cases never overlap
      } else answer = first;
    } catch (error) {
      violate(input, `no HTTP answer: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    const ms = Date.now() - started;
    stats.slowestMs = Math.max(stats.slowestMs, ms);
    if (answer) {
      answer.ms = ms;
      stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
      const rejected = isRejected(answer);
      if (answer.status < 300 && rejected) stats.rejectedAt200++;
      if (answer.status >= 500) {
        stats.fiveXX++;
        violate(input, `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      // Media a route serves (images, video) is not JSON, nor is a redirect (member sign-in's 302); every other answer is, errors always.
      const media = answer.status < 300 && /^(image|video|audio)\//.test(answer.headers.get('content-type') ?? '');
      const redirect = answer.status >= 300 && answer.status < 400 && answer.headers.has('location');
      if (expectJson && answer.json === undefined && answer.status !== 204 && !media && !redirect) violate(input, `HTTP ${answer.status} is not JSON: ${answer.text.slice(0, 200)}`);
      if (expectJson && rejected && answer.json !== undefined) {
        const message = messageOf(answer.json);
        if (!message) violate(input, `HTTP ${answer.status} rejection without a message: ${answer.text.slice(0, 200)}`);
        else {
          if (!isSentence(message)) violate(input, `message is not one sentence: ${JSON.stringify(message.slice(-80))}`);
          if (mustName(answer) && !namesFieldOrBody(message)) violate(input, `HTTP ${answer.status} message names no field and not the body: ${message.slice(0, 200)}`);
        }
        const param = (answer.json as { error?: { param?: unknown } })?.error?.param;
        if (param !== undefined && (typeof param !== 'string' || !param)) violate(input, `error.param is not a field name: ${JSON.stringify(param)}`);
        if (answer.text.length > maxBytes) violate(input, `rejection of ${answer.text.length} bytes (over ${maxBytes}): caller input echoed unclipped?`);
      }
      const extra = route.check?.(input, answer);
      if (extra) violate(input, extra);
      if (route.upstream) {
        const after = await route.upstream();
        if (rejected && !sameValue(before, after)) violate(input, `rejected (HTTP ${answer.status}) but upstream changed: ${brief(before)} -> ${brief(after)}`);
        before = after;
      }
    }
    if (route.afterEach) {
      await route.afterEach(input, answer);
      if (route.upstream) before = await route.upstream();
    }
    return true;
  };

  await fc.assert(fc.asyncProperty(route.cases, one), { numRuns: settings.runs, seed: settings.seed, endOnFailure: true });
  if (violationCount > stats.violations.length) {
    stats.violations.push({ route: route.name, problem: `… and ${violationCount - stats.violations.length} more violations`, input: '' });
  }
  return stats;
}

/** Throws with a readable list when `stats` (one route or a report) recorded violations. */
export function assertNoViolations(stats: RouteStats | FuzzReport): void {
  const violations = stats instanceof FuzzReport ? stats.violations : stats.violations;
  if (!violations.length) return;
  const lines = violations.map((v) => `- ${v.route}: ${v.problem}${v.input ? `\n    case: ${v.input}` : ''}`);
  throw new Error(`fuzzing found ${violations.length} problem(s):\n${lines.join('\n')}`);
}
