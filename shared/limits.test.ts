import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';

describe('LIMITS', () => {
  it('hold the limits the service states', () => {
    expect(LIMITS.groupNameMin).toBe(1);
    expect(LIMITS.groupNameMax).toBe(64);
    expect(LIMITS.groupDescriptionMax).toBe(300);
    expect(LIMITS.pageNumberDefault).toBe(1);
    expect(LIMITS.pageSizeDefault).toBe(20);
    expect(LIMITS.pageSizeMax).toBe(100);
    expect(LIMITS.clockSkewSeconds).toBe(900);
    expect([LIMITS.progressMin, LIMITS.progressMax]).toEqual([0, 100]);
  });

  it('hold the contract limit of 255 characters for Idempotency-Key', () => {
    expect(LIMITS.idempotencyKeyMax).toBe(255);
  });
});
