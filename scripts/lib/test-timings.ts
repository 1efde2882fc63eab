/**
 * Where a test run's time went, from the per-file timings test/support/timing-reporter.ts keeps:
 * per project, its files and tests and its wall time (first file's start to last file's end, on
 * the run's clock); the slowest files with vitest's split of their time. Printed at the end of
 * every `vitest run` and by `.ci/run`.
 */

/** The files the timing reporter writes in test-results/: `test-timings.json`, or one per vitest of `npm test`. */
export const TIMINGS_NAME = /^test-timings(\.[a-z0-9]+)?\.json$/;

/** A test that failed, or `(file)` for a file that failed outside its tests, with its error's first line. */
export interface FailedTest {
  name: string;
  error: string;
}

/** One test file, times in milliseconds from the start of the run. */
export interface FileTiming {
  project: string;
  file: string;
  start: number;
  end: number;
  /** Importing and starting the test environment. */
  environment: number;
  /** The runner's harness and the project's setup files. */
  setup: number;
  /** Importing the test file (and what it imports), running its suite callbacks. */
  collect: number;
  /** Tests and hooks. */
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Absent in timings written before failures were kept. */
  failures?: FailedTest[];
}

export interface ProjectSummary {
  project: string;
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  /** First start to last end. */
  wallMs: number;
  /** Sum of the files' own wall times (above wallMs when files ran side by side). */
  fileMs: number;
}

export interface RunSummary {
  wallMs: number;
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  projects: ProjectSummary[];
  slowest: FileTiming[];
  /** Every failure, by file: the end of a long log names what went wrong. */
  failedTests: { project: string; file: string; name: string; error: string }[];
}

const SLOWEST = 10;

export function summarise(files: readonly FileTiming[], wallMs: number): RunSummary {
  const byProject = new Map<string, FileTiming[]>();
  for (const f of files) byProject.set(f.project, [...(byProject.get(f.project) ?? []), f]);
  const projects = [...byProject].map(([project, list]): ProjectSummary => ({
    project,
    files: list.length,
    passed: sum(list, (f) => f.passed),
    failed: sum(list, (f) => f.failed),
    skipped: sum(list, (f) => f.skipped),
    wallMs: Math.max(...list.map((f) => f.end)) - Math.min(...list.map((f) => f.start)),
    fileMs: sum(list, (f) => f.end - f.start),
  }));
  projects.sort((a, b) => b.wallMs - a.wallMs);
  return {
    wallMs,
    files: files.length,
    passed: sum(projects, (p) => p.passed),
    failed: sum(projects, (p) => p.failed),
    skipped: sum(projects, (p) => p.skipped),
    projects,
    slowest: [...files].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, SLOWEST),
    failedTests: files.flatMap((f) => (f.failures ?? []).map((t) => ({ project: f.project, file: f.file, ...t }))),
  };
}

const sum = <T>(list: readonly T[], of: (item: T) => number): number => list.reduce((total, item) => total + of(item), 0);
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The summary as a few aligned lines of text. */
export function formatSummary(s: RunSummary): string {
  const rows = [
    `Test time: ${secs(s.wallMs)} wall, ${s.files} files, ${s.passed + s.failed + s.skipped} tests (${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped)`,
    ...s.projects.map(
      (p) => `  ${p.project.padEnd(10)} ${secs(p.wallMs).padStart(9)} wall  ${secs(p.fileMs).padStart(9)} in files  ${String(p.files).padStart(4)} files  ${String(p.passed + p.failed + p.skipped).padStart(5)} tests${p.failed > 0 ? `  ${p.failed} FAILED` : ''}`,
    ),
    'Slowest files (wall; environment / setup / import / tests):',
    ...s.slowest.map(
      (f) => `  ${secs(f.end - f.start).padStart(9)}  ${f.project}: ${f.file}  (${[f.environment, f.setup, f.collect, f.tests].map(secs).join(' / ')})`,
    ),
    ...(s.failedTests.length > 0
      ? ['Failed:', ...s.failedTests.map((t) => `  ${t.project}: ${t.file} > ${t.name}\n      ${t.error}`)]
      : []),
  ];
  return rows.join('\n');
}
