import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { pickRegion } from '@/lib/capture/region-picker';
import { captureRegion, captureVisible, cropBox, cropPng, KEEP_ALIVE_MS, screenScale } from '@/lib/capture/tab-capture';
import { fakeScreen, pngBytes, type ScreenFakes } from '@/lib/capture/testing/snapshot-fakes';
import { type BrowserMocks, resetState } from '@/lib/testing/test-setup';

let mocks: BrowserMocks;
let screen: ScreenFakes;

beforeEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  mocks = await resetState();
  screen = fakeScreen(2560, 1440);
});

describe('cropBox', () => {
  const image = { width: 2560, height: 1440 };

  it('scales the rectangle by the device pixel ratio', () => {
    expect(cropBox({ x: 100, y: 50, width: 200, height: 120 }, 2, image)).toEqual({ x: 200, y: 100, width: 400, height: 240 });
    expect(cropBox({ x: 100, y: 50, width: 200, height: 120 }, 1, image)).toEqual({ x: 100, y: 50, width: 200, height: 120 });
  });

  it('rounds fractional edges (a 1.5 ratio) without gaps or growth', () => {
    expect(cropBox({ x: 10.2, y: 0, width: 20.5, height: 10 }, 1.5, image)).toEqual({ x: 15, y: 0, width: 31, height: 15 });
  });

  it('clamps to the image', () => {
    expect(cropBox({ x: -10, y: -5, width: 50, height: 25 }, 2, image)).toEqual({ x: 0, y: 0, width: 80, height: 40 });
    expect(cropBox({ x: 1200, y: 700, width: 500, height: 500 }, 2, image)).toEqual({ x: 2400, y: 1400, width: 160, height: 40 });
  });

  it('answers null for a rectangle off the image', () => {
    expect(cropBox({ x: 1300, y: 0, width: 10, height: 10 }, 2, image)).toBeNull();
    expect(cropBox({ x: -50, y: 0, width: 40, height: 10 }, 1, image)).toBeNull();
  });
});

describe('screenScale', () => {
  it('is the page\'s devicePixelRatio when the screenshot agrees, a scrollbar\'s pixels aside', () => {
    expect(screenScale(2, 1280, 2560)).toBe(2);
    expect(screenScale(1.25, 1024, 1280)).toBe(1.25);
    expect(screenScale(1, 1280, 1265)).toBe(1);
  });

  it('is the screenshot\'s own scale when the ratio is emulated (DevTools\' device mode)', () => {
    expect(screenScale(2, 1280, 1280)).toBe(1);
    expect(screenScale(3, 400, 800)).toBe(2);
  });

  it('is the ratio when the viewport is not known', () => {
    expect(screenScale(2, undefined, 1280)).toBe(2);
    expect(screenScale(2, 0, 1280)).toBe(2);
  });
});

describe('cropPng', () => {
  it('draws the box of the screenshot onto a canvas of its size and answers PNG bytes', async () => {
    const out = await cropPng(pngBytes(), { x: 100, y: 50, width: 200, height: 120 }, { dpr: 2, viewportWidth: 1280 });
    expect(screen.crops).toEqual([{ sx: 200, sy: 100, sw: 400, sh: 240, canvas: [400, 240] }]);
    expect(out?.subarray(0, 4)).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  it('follows the screenshot\'s scale when the page\'s ratio is emulated', async () => {
    await cropPng(pngBytes(), { x: 100, y: 50, width: 200, height: 120 }, { dpr: 1, viewportWidth: 1280 });
    expect(screen.crops).toEqual([{ sx: 200, sy: 100, sw: 400, sh: 240, canvas: [400, 240] }]);
  });
});

describe('captureVisible', () => {
  it('takes a PNG of the window and answers its bytes', async () => {
    expect(await captureVisible(3)).toEqual({ ok: true, bytes: pngBytes() });
    expect(screen.capture).toHaveBeenCalledWith(3, { format: 'png' });
  });

  it('waits and tries once more when captures come too fast', async () => {
    screen.capture.mockRejectedValueOnce(new Error('This request exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota.'));
    const sleep = vi.fn(async () => {});
    expect(await captureVisible(3, sleep)).toMatchObject({ ok: true });
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(screen.capture).toHaveBeenCalledTimes(2);
  });

  it('says a browser page cannot be captured', async () => {
    screen.capture.mockRejectedValueOnce(new Error('Cannot access contents of url "chrome://settings/".'));
    expect(await captureVisible(3)).toEqual({ ok: false, message: expect.stringMatching(/^This page cannot be captured/) });
  });
});

describe('captureRegion', () => {
  it('shows the overlay in the top frame with its strings, then crops the screenshot taken after it closed', async () => {
    mocks.executeScript.mockResolvedValueOnce([{ result: { x: 100, y: 50, width: 200, height: 120, dpr: 2, viewportWidth: 1280 } }]);
    const shot = await captureRegion({ id: 7, windowId: 3 });
    expect(shot).toMatchObject({ ok: true });
    const [[call]] = mocks.executeScript.mock.calls as [[{ target: unknown; func: unknown; args: unknown[] }]];
    expect(call.target).toEqual({ tabId: 7, frameIds: [0] });
    expect(call.func).toBe(pickRegion);
    expect(call.args[0]).toEqual({ label: expect.any(String), instructions: expect.stringMatching(/Escape/), size: '{width} × {height}' });
    expect(mocks.executeScript.mock.invocationCallOrder[0]).toBeLessThan(screen.capture.mock.invocationCallOrder[0]!);
    expect(screen.crops).toEqual([{ sx: 200, sy: 100, sw: 400, sh: 240, canvas: [400, 240] }]);
  });

  it('keeps the background awake while the member drags, and stops once answered', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const platform = vi.spyOn(fakeBrowser.runtime, 'getPlatformInfo').mockResolvedValue({ os: 'linux', arch: 'x86-64' } as never);
      let answer!: (value: unknown) => void;
      mocks.executeScript.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
      const shot = captureRegion({ id: 7, windowId: 3 });
      vi.advanceTimersByTime(KEEP_ALIVE_MS * 3);
      expect(platform).toHaveBeenCalledTimes(3);
      answer([{ result: null }]);
      expect(await shot).toBeNull();
      vi.advanceTimersByTime(KEEP_ALIVE_MS * 3);
      expect(platform).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes nothing when the member cancelled (or the page answered nonsense)', async () => {
    mocks.executeScript.mockResolvedValueOnce([{ result: null }]);
    expect(await captureRegion({ id: 7, windowId: 3 })).toBeNull();
    mocks.executeScript.mockResolvedValueOnce([{ result: { x: 0, y: 0, width: -5, height: 10, dpr: 1, viewportWidth: 1280 } }]);
    expect(await captureRegion({ id: 7, windowId: 3 })).toBeNull();
    expect(screen.capture).not.toHaveBeenCalled();
  });

  it('says so when the page cannot be scripted', async () => {
    mocks.executeScript.mockRejectedValueOnce(new Error('Cannot access a chrome:// URL'));
    expect(await captureRegion({ id: 7, windowId: 3 })).toEqual({ ok: false, message: expect.stringMatching(/^This page cannot be captured/) });
  });
});
