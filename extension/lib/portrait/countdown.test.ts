import { describe, expect, it } from 'vitest';
import { expiryAnnouncement, formatCountdown } from '@/lib/portrait/countdown';

describe('countdown', () => {
  it('shows mm:ss rounded up, never below 00:00', () => {
    expect(formatCountdown(300_000)).toBe('05:00');
    expect(formatCountdown(299_001)).toBe('05:00');
    expect(formatCountdown(299_000)).toBe('04:59');
    expect(formatCountdown(61_000)).toBe('01:01');
    expect(formatCountdown(500)).toBe('00:01');
    expect(formatCountdown(-5)).toBe('00:00');
  });

  it('announces once a minute, then at 30 and 10 seconds', () => {
    expect(expiryAnnouncement(300_000)).toBe('The code expires in 5 min.');
    expect(expiryAnnouncement(241_000)).toBe('The code expires in 5 min.');
    expect(expiryAnnouncement(240_000)).toBe('The code expires in 4 min.');
    expect(expiryAnnouncement(45_000)).toBe('The code expires in 1 min.');
    expect(expiryAnnouncement(30_000)).toBe('The code expires in 30 s.');
    expect(expiryAnnouncement(9_000)).toBe('The code expires in 10 s.');
  });
});
