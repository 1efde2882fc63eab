import { describe, expect, it } from 'vitest';
import { formatSummary, summarise, type FileTiming } from './test-timings';

const file = (project: string, name: string, start: number, end: number, passed = 1, failed = 0): FileTiming => ({
  project, file: name, start, end, environment: 1, setup: 2, collect: 3, tests: end - start - 6, passed, failed, skipped: 0,
});

describe('test timings', () => {
  it('gives each project the wall time from its first start to its last end, and the sum of its files', () => {
    const s = summarise([file('proxy', 'a', 0, 10_000), file('proxy', 'b', 5_000, 20_000), file('unit', 'c', 1_000, 2_000)], 21_000);
    expect(s.projects.map((p) => [p.project, p.wallMs, p.fileMs, p.files])).toEqual([
      ['proxy', 20_000, 25_000, 2],
      ['unit', 1_000, 1_000, 1],
    ]);
  });

  it('counts tests by outcome over every project', () => {
    const s = summarise([file('proxy', 'a', 0, 10, 3, 1), file('unit', 'c', 0, 10, 5)], 10);
    expect([s.files, s.passed, s.failed, s.skipped]).toEqual([2, 8, 1, 0]);
    expect(formatSummary(s)).toMatch(/2 files, 9 tests \(8 passed, 1 failed, 0 skipped\)/);
    expect(formatSummary(s)).toMatch(/proxy .* 1 FAILED/);
  });

  it('lists the slowest files first, at most ten', () => {
    const files = Array.from({ length: 12 }, (_, i) => file('e2e', `f${i}`, 0, (i + 1) * 1000));
    const s = summarise(files, 12_000);
    expect(s.slowest.map((f) => f.file)).toEqual(['f11', 'f10', 'f9', 'f8', 'f7', 'f6', 'f5', 'f4', 'f3', 'f2']);
    expect(formatSummary(s)).toContain('12.0 s  e2e: f11');
  });

  it('names every failed test with its error at the end, and nothing when all passed', () => {
    const failing = { ...file('proxy', 'worker/a.test.ts', 0, 10, 3, 1), failures: [{ name: 'budgets > holds', error: 'expected 1 to be 2' }] };
    const text = formatSummary(summarise([failing, file('unit', 'c', 0, 10, 5)], 10));
    expect(text).toMatch(/Failed:\n  proxy: worker\/a\.test\.ts > budgets > holds\n      expected 1 to be 2$/);
    expect(formatSummary(summarise([file('unit', 'c', 0, 10, 5)], 10))).not.toContain('Failed:');
  });
});
