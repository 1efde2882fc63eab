import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '@@/shared';
import { formatClock, formatMediaTime, frameName, screenshotName } from '@/lib/capture/snapshot-names';
import { setLocale } from '@/lib/i18n/translate';

const AT = new Date(2026, 10, 23, 18, 40, 59);

afterEach(() => setLocale('en'));

describe('formatClock', () => {
  it('writes the local date and time to the minute, zero-padded', () => {
    expect(formatClock(AT)).toBe('2026-11-23 18:40');
    expect(formatClock(new Date(2027, 0, 2, 3, 4))).toBe('2027-01-02 03:04');
  });
});

describe('formatMediaTime', () => {
  it.each([
    [12.9, '0:12'],
    [0, '0:00'],
    [725, '12:05'],
    [3723, '1:02:03'],
    [Number.NaN, '0:00'],
    [Number.POSITIVE_INFINITY, '0:00'],
    [-4, '0:00'],
  ])('%s s reads %s', (seconds, text) => {
    expect(formatMediaTime(seconds)).toBe(text);
  });
});

describe('names', () => {
  it('names a screenshot by the page title and the time', () => {
    expect(screenshotName('Fox  gallery\n', AT)).toBe('Screenshot of Fox gallery 2026-11-23 18:40');
    expect(screenshotName('', AT)).toBe('Screenshot of a page 2026-11-23 18:40');
  });

  it('names a frame by the video, else the page, and its time', () => {
    expect(frameName('Launch trailer', 'Fox gallery', 12.4)).toBe('Frame of Launch trailer at 0:12');
    expect(frameName('  ', 'Fox gallery', 61)).toBe('Frame of Fox gallery at 1:01');
  });

  it('shortens a long title so that the name fits the library and keeps the time', () => {
    const name = screenshotName('x'.repeat(10_000), AT);
    expect(name.length).toBeLessThanOrEqual(LIMITS.assetNameMax);
    expect(name).toMatch(/x… 2026-11-23 18:40$/);
    expect(frameName('y'.repeat(300), undefined, 5)).toMatch(/^Frame of y+… at 0:05$/);
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(screenshotName('狐狸', AT)).toBe('狐狸 的截图 2026-11-23 18:40');
    expect(frameName('预告片', undefined, 12)).toBe('预告片 在 0:12 的画面');
  });
});
