import { describe, expect, it } from 'vitest';
import { describeStall, stallLimitMs, StallWatch } from './stall-watch';

const LIMIT = 1_000;

describe('StallWatch', () => {
  it('answers nothing while every file in flight and the run move within the limit', () => {
    const watch = new StallWatch(LIMIT, 0);
    watch.seen('a.test.ts', 'started', 0);
    watch.seen('a.test.ts', 'test started: one', 900);
    watch.seen('b.test.ts', 'started', 1_500);
    expect(watch.stalled(1_800)).toBeNull();
  });

  it('names a file in flight that went silent, even while other files move', () => {
    const watch = new StallWatch(LIMIT, 0);
    watch.seen('stuck.test.ts', 'test started: hangs', 100);
    for (let t = 0; t <= 2_000; t += 500) watch.seen('busy.test.ts', `test ended: ${t}`, t);
    expect(watch.stalled(2_000)).toEqual({
      files: [{ file: 'stuck.test.ts', last: 'test started: hangs', silentMs: 1_900 }],
      last: 'busy.test.ts: test ended: 2000',
      silentMs: 0,
    });
  });

  it('forgets a file once it ended', () => {
    const watch = new StallWatch(LIMIT, 0);
    watch.seen('a.test.ts', 'started', 0);
    watch.ended('a.test.ts', 200);
    watch.seen('b.test.ts', 'started', 900);
    expect(watch.stalled(1_500)).toBeNull();
  });

  it('names the run stuck between files (every file ended, the run never did), with its last event', () => {
    const watch = new StallWatch(LIMIT, 0);
    watch.seen('last.test.ts', 'test ended: the last one', 100);
    watch.ended('last.test.ts', 150);
    expect(watch.stalled(1_100)).toBeNull();
    const stall = watch.stalled(1_151);
    expect(stall).toEqual({ files: [], last: 'last.test.ts: ended', silentMs: 1_001 });
    expect(describeStall(stall!, LIMIT)).toBe(
      "vitest made no progress for more than 1 s (no timeout of vitest's fired): the run is ended.\n  no file in flight; silent 1 s after: last.test.ts: ended",
    );
  });

  it('describes each stalled file with what it did last', () => {
    const watch = new StallWatch(LIMIT, 0);
    watch.seen('x.test.ts', 'hook started: afterAll', 0);
    expect(describeStall(watch.stalled(3_000)!, LIMIT)).toContain('in flight: x.test.ts, silent 3 s after: hook started: afterAll');
  });
});

describe('stallLimitMs', () => {
  it('is past the e2e hook timeout (600 s) by default, and TEST_STALL_SECONDS sets it', () => {
    expect(stallLimitMs({})).toBe(660_000);
    expect(stallLimitMs({ TEST_STALL_SECONDS: '30' })).toBe(30_000);
    expect(stallLimitMs({ TEST_STALL_SECONDS: 'soon' })).toBe(660_000);
    expect(stallLimitMs({ TEST_STALL_SECONDS: '0' })).toBe(660_000);
  });
});
