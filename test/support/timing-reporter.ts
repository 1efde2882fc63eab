/**
 * A vitest reporter that keeps where the suite's time goes: per file, its project, when it started
 * and ended on the run's clock, and vitest's own split of that time (environment, setup, import,
 * tests); per project, the tests counted and the wall time from its first file's start to its last
 * file's end. Written to `test-results/test-timings.json` and printed as a short table at the end
 * of the run, so a regression in time shows in every run (docs/testing.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { formatSummary, summarise, type FailedTest, type FileTiming } from '../../scripts/lib/test-timings';

/** The error's first line, bounded: the summary names a failure, the run's log has the rest. */
const firstLine = (message: string): string => message.split('\n', 1)[0]!.slice(0, 300);

/** `npm test` runs two vitests at once and names a file for each. */
const timingsFile = (): string => process.env.TEST_TIMINGS_FILE ?? 'test-results/test-timings.json';

export default class TimingReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly files: FileTiming[] = [];
  private runStart = 0;

  onTestRunStart(): void {
    this.runStart = performance.now();
  }

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.id, performance.now() - this.runStart);
  }

  onTestModuleEnd(module: TestModule): void {
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
    const summary = summarise(this.files, performance.now() - this.runStart);
    mkdirSync(dirname(timingsFile()), { recursive: true });
    writeFileSync(timingsFile(), `${JSON.stringify({ ...summary, files: this.files }, null, 1)}\n`);
    process.stdout.write(`\n${formatSummary(summary)}\n`);
  }
}
