import { describe, expect, it } from 'vitest';
import { proxyEnv, recordSeen, seen } from './proxy-test-client';

describe('the leak guard', () => {
  it('checks the answers as they pile up past 32 MB, and lets them go', () => {
    const filler = 'x'.repeat(16 * 1024 * 1024);
    recordSeen(`200 [] ${filler}`);
    expect(seen).toHaveLength(1);
    // The bound is passed: what is held is checked now, and a secret in it fails the test at once.
    expect(() => recordSeen(`200 [] ${filler}${filler} ${proxyEnv.ADMIN_TOKEN}`)).toThrow('a response holds a secret');
    expect(seen).toHaveLength(0);
    // Clean answers past the bound are checked and let go without a word.
    recordSeen(`200 [] ${filler}`);
    recordSeen(`200 [] ${filler}${filler}`);
    expect(seen).toHaveLength(0);
  });
});
