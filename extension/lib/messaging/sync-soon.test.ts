import { describe, expect, it } from 'vitest';
import { setSyncPass, syncSoon } from './sync-soon';

describe('syncSoon', () => {
  it('a pass asked for while one is running runs after it, even when the running one fails', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    let calls = 0;
    setSyncPass(async () => {
      calls += 1;
      if (calls === 1) {
        await held;
        runs.push('first failed');
        throw new Error('an unexpected failure');
      }
      runs.push('second');
    });
    const first = syncSoon();
    const second = syncSoon(); // an item added meanwhile asks for a pass
    release();
    await expect(first).rejects.toThrow('an unexpected failure');
    await expect(second).rejects.toThrow('an unexpected failure');
    expect(runs).toEqual(['first failed', 'second']);
    // The engine is free again: the next call runs a pass of its own.
    await syncSoon();
    expect(runs).toEqual(['first failed', 'second', 'second']);
  });
});
