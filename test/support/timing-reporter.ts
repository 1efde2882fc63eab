/**
 * A vitest reporter that keeps where the suite's time goes: per file, its project, when it started
 * and ended on the run's clock, and vitest's own split of that time (environment, setup, import,
 * tests); per project, the tests counted and the wall time from its first file's start to its last
 * file's end. Written to `test-results/test-timings.json` and printed as a short table at the end
 * of the run, so a regression in time shows in every run (docs/testing.md). It also watches for a
 * run that stops moving with no timeout of vitest's firing (scripts/lib/stall-watch.ts): then it
 * writes what was in flight as failed and ends the run, instead of leaving it hung until CI's limit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, ReportedHookContext, TestCase, TestModule } from 'vitest/node';
import { describeStall, stallLimitMs, StallWatch, type Stall } from '../../scripts/lib/stall-watch';
import { formatSummary, summarise, type FailedTest, type FileTiming } from '../../scripts/lib/test-timings';

/** The error's first line, bounded: the summary names a failure, the run's log has the rest. */
const firstLine = (message: string): string => message.split('\n', 1)[0]!.slice(0, 300);

/** The file a hook runs in (a file's own beforeAll/afterAll have the file as their entity). */
const moduleOf = (hook: ReportedHookContext): TestModule => (hook.entity.type === 'module' ? hook.entity : hook.entity.module);

/** `npm test` runs two vitests at once and names a file for each. */
const timingsFile = (): string => process.env.TEST_TIMINGS_FILE ?? 'test-results/test-timings.json';

export default class TimingReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly files: FileTiming[] = [];
  private runStart = 0;
  private readonly stallLimit = stallLimitMs();
  private watch = new StallWatch(this.stallLimit, performance.now());
  private watchTimer: ReturnType<typeof setInterval> | undefined;
  /** Project of each module seen, for a stalled file's entry. */
  private readonly projects = new Map<string, string>();

  onTestRunStart(): void {
    this.runStart = performance.now();
    this.watch = new StallWatch(this.stallLimit, this.runStart);
    clearInterval(this.watchTimer);
    this.watchTimer = setInterval(() => this.checkStall(), Math.min(5_000, this.stallLimit / 4));
    this.watchTimer.unref();
  }

  onTestModuleQueued(module: TestModule): void {
    this.projects.set(this.fileOf(module), module.project.name);
    // Progress of the run, not yet a file in flight: a file may wait its turn (the proxy's run one at a time).
    this.watch.seen(null, `${this.fileOf(module)}: queued`, performance.now());
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.id, performance.now() - this.runStart);
    this.watch.seen(this.fileOf(module), 'started', performance.now());
  }

  onTestCaseReady(test: TestCase): void {
    this.watch.seen(this.fileOf(test.module), `test started: ${test.fullName}`, performance.now());
  }

  onTestCaseResult(test: TestCase): void {
    this.watch.seen(this.fileOf(test.module), `test ended: ${test.fullName}`, performance.now());
  }

  onHookStart(hook: ReportedHookContext): void {
    this.watch.seen(this.fileOf(moduleOf(hook)), `hook started: ${hook.name}`, performance.now());
  }

  onHookEnd(hook: ReportedHookContext): void {
    this.watch.seen(this.fileOf(moduleOf(hook)), `hook ended: ${hook.name}`, performance.now());
  }

  private fileOf(module: TestModule): string {
    return relative(process.cwd(), module.moduleId);
  }

  private checkStall(): void {
    const stall = this.watch.stalled(performance.now());
    if (stall) this.endStalled(stall);
  }

  /** Writes the timings with what was in flight as failed, says why, and ends the run. */
  private endStalled(stall: Stall): void {
    clearInterval(this.watchTimer);
    const now = performance.now() - this.runStart;
    const why = describeStall(stall, this.stallLimit);
    const stalled = stall.files.length ? stall.files : [{ file: '(between files)', last: stall.last, silentMs: stall.silentMs }];
    for (const f of stalled) {
      this.files.push({
        project: this.projects.get(f.file) ?? '',
        file: f.file,
        start: now,
        end: now,
        environment: 0,
        setup: 0,
        collect: 0,
        tests: 0,
        passed: 0,
        failed: 1,
        skipped: 0,
        failures: [{ name: '(stalled)', error: firstLine(`silent ${Math.round(f.silentMs / 1000)} s after: ${f.last}`) }],
      });
    }
    process.stderr.write(`\n${why}\n`);
    this.onTestRunEnd();
    process.exit(1);
  }

  onTestModuleEnd(module: TestModule): void {
    this.watch.ended(this.fileOf(module), performance.now());
    const end = performance.now() - this.runStart;
    const d = module.diagnostic();
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: FailedTest[] = [];
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'passed') counts.passed += 1;
      else if (result.state === 'failed') {
        counts.failed += 1;
        failures.push({ name: test.fullName, error: firstLine(result.errors?.[0]?.message ?? '') });
      } else counts.skipped += 1;
    }
    // A file that fails outside any test (an import, a hook) has no failed test to name.
    for (const error of module.errors()) failures.push({ name: '(file)', error: firstLine(error.message ?? '') });
    this.files.push({
      project: module.project.name,
      file: relative(process.cwd(), module.moduleId),
      start: this.started.get(module.id) ?? end,
      end,
      environment: d.environmentSetupDuration,
      setup: d.prepareDuration + d.setupDuration,
      collect: d.collectDuration,
      tests: d.duration,
      ...counts,
      failures,
    });
  }

  onTestRunEnd(): void {
    clearInterval(this.watchTimer);
    const summary = summarise(this.files, performance.now() - this.runStart);
    mkdirSync(dirname(timingsFile()), { recursive: true });
    writeFileSync(timingsFile(), `${JSON.stringify({ ...summary, files: this.files }, null, 1)}\n`);
    process.stdout.write(`\n${formatSummary(summary)}\n`);
  }
}
