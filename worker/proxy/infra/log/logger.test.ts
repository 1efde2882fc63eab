import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

describe('createLogger', () => {
  const secret = 'very-secret-value';
  const logged = (...entries: Record<string, unknown>[]) => {
    const lines: string[] = [];
    const log = createLogger([secret], (line) => lines.push(line));
    for (const entry of entries) log({ route: 'GET /x', status: 200, durationMs: 1, ...entry });
    return lines.map((line) => JSON.parse(line));
  };

  it('redacts a secret in a field on every line, a repeated value too, short or long', () => {
    const short = `op-${secret}`;
    const long = `${'x'.repeat(300)}${secret}`;
    const lines = logged({ operation: short }, { operation: short }, { operation: long }, { operation: long });
    for (const line of lines) expect(JSON.stringify(line)).not.toContain(secret);
    expect(lines[0].operation).toBe('op-[redacted]');
    expect(lines[1].operation).toBe('op-[redacted]');
  });

  it('keeps other values as they are, each line with its own', () => {
    const lines = logged({ member: 'm1', status: 200 }, { member: 'm2', status: 404 }, { member: 'm1', status: 500 });
    expect(lines.map((l) => [l.member, l.status])).toEqual([['m1', 200], ['m2', 404], ['m1', 500]]);
    for (const line of lines) expect(Number.isNaN(Date.parse(line.time))).toBe(false);
  });
});
