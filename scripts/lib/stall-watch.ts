/**
 * A vitest run that stops moving: every timeout of vitest's fires inside the test runtime, so a
 * runtime that wedges (workerd, a pool that never tears down) hangs the run silently until CI's own
 * limit, naming nothing. The timing reporter (test/support/timing-reporter.ts) tells this watch
 * what happens; once a file in flight, or the run between files, has been silent for longer than any
 * timeout of vitest's allows, it answers what was in flight so the run can end naming it.
 */

export interface StalledFile {
  file: string;
  /** What the file did last: a test or hook started or ended, or "started". */
  last: string;
  silentMs: number;
}

export interface Stall {
  /** Files in flight that have been silent too long (empty: the run itself, between files or after the last). */
  files: StalledFile[];
  /** The run's last event, for a stall between files. */
  last: string;
  silentMs: number;
}

export class StallWatch {
  readonly #limitMs: number;
  readonly #inFlight = new Map<string, { last: string; at: number }>();
  #last: { what: string; at: number };

  constructor(limitMs: number, now: number) {
    this.#limitMs = limitMs;
    this.#last = { what: 'the run started', at: now };
  }

  /** Something happened in `file` (null: in the run, outside any file). */
  seen(file: string | null, what: string, now: number): void {
    this.#last = { what: file ? `${file}: ${what}` : what, at: now };
    if (file) this.#inFlight.set(file, { last: what, at: now });
  }

  /** `file` has ended: however long it then stays quiet is not its stall. */
  ended(file: string, now: number): void {
    this.#inFlight.delete(file);
    this.#last = { what: `${file}: ended`, at: now };
  }

  /** What has stalled at `now`, or null while everything moves within the limit. */
  stalled(now: number): Stall | null {
    const files = [...this.#inFlight].filter(([, f]) => now - f.at > this.#limitMs).map(([file, f]) => ({ file, last: f.last, silentMs: now - f.at }));
    const silentMs = now - this.#last.at;
    if (files.length || silentMs > this.#limitMs) return { files, last: this.#last.what, silentMs };
    return null;
  }
}

/** How long a file or the run may be silent: past vitest's longest hook timeout (600 s, e2e) with room. `TEST_STALL_SECONDS` sets it. */
export function stallLimitMs(env: Record<string, string | undefined> = process.env): number {
  const seconds = Number(env.TEST_STALL_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 660_000;
}

/** The stall in a few lines, for the run's output. */
export function describeStall(stall: Stall, limitMs: number): string {
  const lines = [`vitest made no progress for more than ${Math.round(limitMs / 1000)} s (no timeout of vitest's fired): the run is ended.`];
  if (stall.files.length) for (const f of stall.files) lines.push(`  in flight: ${f.file}, silent ${Math.round(f.silentMs / 1000)} s after: ${f.last}`);
  else lines.push(`  no file in flight; silent ${Math.round(stall.silentMs / 1000)} s after: ${stall.last}`);
  return lines.join('\n');
}
