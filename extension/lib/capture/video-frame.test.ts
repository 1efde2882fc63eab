import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endPageRead, pollPageRead, readPageChunk, startPageRead } from '@/lib/capture/page-reader';
import { fakeScreen, PNG_BASE64, pngBytes, type ScreenFakes } from '@/lib/capture/testing/snapshot-fakes';
import { captureVideoFrame, dropFrameUrl, type FrameAnswer, frameRoute, grabVideoFrame, locateFrame } from '@/lib/capture/video-frame';
import { type BrowserMocks, resetState } from '@/lib/testing/test-setup';

let mocks: BrowserMocks;
let screen: ScreenFakes;

const facts = { name: 'Trailer', time: 12.5, rect: { x: 10, y: 20, width: 320, height: 180 }, dpr: 2, viewportWidth: 1280 };

/** The page's side: each in-page function answers as the page would. */
function page(answers: Map<unknown, (args: unknown[], frameId: number) => unknown>): void {
  mocks.executeScript.mockImplementation(async ({ func, args, target }: { func: unknown; args: unknown[]; target: { frameIds: number[] } }) => {
    const answer = answers.get(func);
    if (!answer) throw new Error(`unexpected ${String(func)}`);
    return [{ result: answer(args, target.frameIds[0]!) }];
  });
}

const calls = (func: unknown) => (mocks.executeScript.mock.calls as [{ func: unknown; args: unknown[]; target: unknown }][]).filter(([c]) => c.func === func).map(([c]) => c);

beforeEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  mocks = await resetState();
  screen = fakeScreen(2560, 1440);
});

describe('frameRoute (what a frame answer leads to)', () => {
  it.each([
    ['bytes', { kind: 'bytes', url: 'blob:x', width: 1, height: 1, ...facts }, true, 'read'],
    ['a tainted canvas', { kind: 'tainted', ...facts }, true, 'crop'],
    ['a tainted canvas in a subframe', { kind: 'tainted', ...facts }, false, 'locate-then-crop'],
    ['no picture yet', { kind: 'not-ready', ...facts }, true, 'not-ready'],
    ['a failure', { kind: 'failed', detail: 'x', ...facts }, true, 'failed'],
    ['no video', { kind: 'none' }, true, 'none'],
  ] as [string, FrameAnswer, boolean, string][])('%s: %s', (_, answer, top, route) => {
    expect(frameRoute(answer, top)).toBe(route);
  });
});

describe('grabVideoFrame (in the page)', () => {
  const place = (video: HTMLVideoElement, left: number, top: number, width: number, height: number) => {
    video.getBoundingClientRect = () => ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON() {} }) as DOMRect;
  };
  const video = (src: string, over: Partial<Record<'readyState' | 'videoWidth' | 'videoHeight' | 'currentTime', number>> = {}) => {
    const element = document.createElement('video');
    element.src = src;
    for (const [key, value] of Object.entries({ readyState: 4, videoWidth: 640, videoHeight: 360, currentTime: 3, ...over })) Object.defineProperty(element, key, { value });
    document.body.append(element);
    return element;
  };

  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('answers none without a video', async () => {
    expect(await grabVideoFrame(null, 100)).toEqual({ kind: 'none' });
  });

  it('finds the clicked video by its address, else the largest in view, and says when it has no picture yet', async () => {
    const small = video('https://cdn.example.com/small.mp4', { readyState: 1 });
    place(small, 0, 0, 100, 50);
    small.title = 'Small one';
    const large = video('https://cdn.example.com/large.mp4', { readyState: 1 });
    place(large, 0, 100, 800, 450);
    expect(await grabVideoFrame('https://cdn.example.com/small.mp4', 100)).toMatchObject({ kind: 'not-ready', name: 'Small one', time: 3, rect: { x: 0, y: 0, width: 100, height: 50 } });
    expect(await grabVideoFrame('https://elsewhere.example.com/gone.mp4', 100)).toMatchObject({ kind: 'not-ready', rect: { y: 100, width: 800 } });
  });

  it('clips the box to the viewport', async () => {
    place(video('https://cdn.example.com/a.mp4', { readyState: 0 }), -50, innerHeight - 100, 400, 300);
    expect(await grabVideoFrame(null, 100)).toMatchObject({ rect: { x: 0, y: innerHeight - 100, width: 350, height: 100 }, viewportWidth: innerWidth });
  });

  it('answers tainted when the canvas refuses to be read (a cross-origin video without CORS)', async () => {
    place(video('https://other.example.com/a.mp4'), 0, 0, 640, 360);
    const drawn: number[][] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage: (_v: unknown, ...box: number[]) => drawn.push(box) } as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(() => {
      throw new DOMException('Tainted canvases may not be exported.', 'SecurityError');
    });
    expect(await grabVideoFrame(null, 100)).toMatchObject({ kind: 'tainted', time: 3 });
    expect(drawn).toEqual([[0, 0, 640, 360]]);
  });

  it('leaves the PNG of a readable canvas under a blob: address', async () => {
    place(video('https://cdn.example.com/a.mp4'), 0, 0, 640, 360);
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage: () => {} } as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => callback(new Blob([pngBytes()], { type: 'image/png' })));
    const answer = await grabVideoFrame(null, 100);
    expect(answer).toMatchObject({ kind: 'bytes', width: 640, height: 360, url: expect.stringMatching(/^blob:/) });
  });

  it('keeps at most nameMax characters of the title', async () => {
    const element = video('https://cdn.example.com/a.mp4', { readyState: 0 });
    place(element, 0, 0, 10, 10);
    element.title = 'x'.repeat(500);
    expect(((await grabVideoFrame(null, 100)) as { name: string }).name).toHaveLength(100);
  });
});

describe('captureVideoFrame', () => {
  const tab = { id: 7, windowId: 3 };

  it('reads the PNG from the frame through the page reader and forgets it there', async () => {
    const answers = new Map<unknown, (args: unknown[]) => unknown>([
      [grabVideoFrame, () => ({ kind: 'bytes', url: 'blob:https://www.example.com/f1', width: 1, height: 1, ...facts })],
      [startPageRead, () => true],
      [pollPageRead, () => ({ received: 70, total: 70, done: true, error: null, tooLarge: false, contentType: 'image/png', size: pngBytes().byteLength })],
      [readPageChunk, () => PNG_BASE64],
      [endPageRead, () => true],
      [dropFrameUrl, () => true],
    ]);
    page(answers);
    expect(await captureVideoFrame(tab, 4, 'https://cdn.example.com/a.mp4', 'https://www.example.com/embed')).toEqual({ ok: true, bytes: pngBytes(), name: 'Trailer', time: 12.5 });
    expect(calls(grabVideoFrame)[0]).toMatchObject({ target: { tabId: 7, frameIds: [4] }, args: ['https://cdn.example.com/a.mp4', 4096] });
    expect(calls(startPageRead)[0]!.args[0]).toBe('blob:https://www.example.com/f1');
    expect(calls(dropFrameUrl)).toEqual([expect.objectContaining({ args: ['blob:https://www.example.com/f1'] })]);
    expect(screen.capture).not.toHaveBeenCalled();
  });

  it('falls back to the visible tab cropped to the video when the canvas is tainted', async () => {
    page(new Map([[grabVideoFrame, () => ({ kind: 'tainted', ...facts })]]));
    expect(await captureVideoFrame(tab, 0, undefined, undefined)).toMatchObject({ ok: true, name: 'Trailer', time: 12.5 });
    expect(screen.capture).toHaveBeenCalledWith(3, { format: 'png' });
    expect(screen.crops).toEqual([{ sx: 20, sy: 40, sw: 640, sh: 360, canvas: [640, 360] }]);
  });

  it('in a subframe, offsets the crop by where the frame is in the top one', async () => {
    page(
      new Map<unknown, (args: unknown[], frameId: number) => unknown>([
        [grabVideoFrame, () => ({ kind: 'tainted', ...facts })],
        [locateFrame, (args, frameId) => (frameId === 0 && args[0] === 'https://player.example.net/embed/1' ? { x: 100, y: 200, viewportWidth: 1280 } : null)],
      ]),
    );
    expect(await captureVideoFrame(tab, 5, undefined, 'https://player.example.net/embed/1')).toMatchObject({ ok: true });
    expect(screen.crops).toEqual([{ sx: 220, sy: 440, sw: 640, sh: 360, canvas: [640, 360] }]);
  });

  it('says why when the subframe cannot be located', async () => {
    page(
      new Map<unknown, () => unknown>([
        [grabVideoFrame, () => ({ kind: 'tainted', ...facts })],
        [locateFrame, () => null],
      ]),
    );
    expect(await captureVideoFrame(tab, 5, undefined, 'https://player.example.net/embed/1')).toEqual({ ok: false, message: expect.stringMatching(/frame of another site/) });
    expect(screen.capture).not.toHaveBeenCalled();
  });

  it('says a player embedded from another site cannot be read (its frame cannot be scripted)', async () => {
    mocks.executeScript.mockRejectedValueOnce(new Error('Cannot access contents of url "https://player.example.net/embed/1".'));
    expect(await captureVideoFrame(tab, 5, undefined, 'https://player.example.net/embed/1')).toEqual({ ok: false, message: expect.stringMatching(/embedded player/) });
    mocks.executeScript.mockRejectedValueOnce(new Error('Cannot access a chrome:// URL'));
    expect(await captureVideoFrame(tab, 0, undefined, undefined)).toEqual({ ok: false, message: expect.stringMatching(/^This page cannot be captured/) });
  });

  it.each([
    ['no video', { kind: 'none' }, /No video/],
    ['no picture yet', { kind: 'not-ready', ...facts }, /no picture yet/],
    ['a failure', { kind: 'failed', detail: 'boom', ...facts }, /\(boom\)/],
  ])('tells the member about %s', async (_, answer, message) => {
    page(new Map([[grabVideoFrame, () => answer]]));
    expect(await captureVideoFrame(tab, 0, undefined, undefined)).toEqual({ ok: false, message: expect.stringMatching(message) });
  });
});
