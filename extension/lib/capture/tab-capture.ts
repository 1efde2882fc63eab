import { browser } from 'wxt/browser';
import { decodeDataUrl } from '@/lib/capture/page-reader';
import { MIN_DRAG_PX, PICK_TIMEOUT_MS, pickRegion, readPickedRegion, type RegionPickerText } from '@/lib/capture/region-picker';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/snapshot.en';

/**
 * Screenshots of the visible tab (`tabs.captureVisibleTab`, allowed by the menu click's activeTab
 * grant: no host access), whole or cropped to a rectangle, cropped here in the background with
 * createImageBitmap and OffscreenCanvas (both in Chromium's service worker and Firefox's background
 * page).
 */

/** A rectangle in CSS pixels of the viewport. */
export interface ViewportRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A rectangle in the screenshot's own (device) pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a capture answers: PNG bytes, or why there are none (a message for the member). */
export type Shot = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false; message: string };

/** Most bytes a screenshot's data URL is decoded to (the upload rules refuse large ones with their own words). */
const SHOT_MAX_BYTES = 128 * 1024 * 1024;
/** Chromium allows two captures a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND): a quick second one waits and retries once. */
const RATE_RETRY_MS = 1_000;
/** How often the background touches an API while the region overlay is open. */
export const KEEP_ALIVE_MS = 20_000;

/**
 * The screenshot's pixels under `rect`: its edges × `dpr`, rounded, clamped to the image. Null when
 * nothing of it is on the image.
 */
export function cropBox(rect: ViewportRect, dpr: number, image: { width: number; height: number }): PixelBox | null {
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.round(value)));
  const left = clamp(rect.x * dpr, image.width);
  const top = clamp(rect.y * dpr, image.height);
  const right = clamp((rect.x + rect.width) * dpr, image.width);
  const bottom = clamp((rect.y + rect.height) * dpr, image.height);
  return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null;
}

/** Beyond this relative difference, the screenshot's own scale wins over the page's devicePixelRatio. */
const SCALE_TOLERANCE = 0.05;

/**
 * Screenshot pixels per CSS pixel: the page's devicePixelRatio, unless the screenshot says otherwise
 * (its width over the viewport's differs by more than 5 %: an emulated ratio, as DevTools' device
 * mode sets, leaves the screenshot at the screen's own). A scrollbar's few pixels stay within it.
 */
export function screenScale(dpr: number, viewportWidth: number | undefined, imageWidth: number): number {
  if (!viewportWidth || viewportWidth <= 0 || imageWidth <= 0) return dpr;
  const measured = imageWidth / viewportWidth;
  return Math.abs(measured / dpr - 1) > SCALE_TOLERANCE ? measured : dpr;
}

/** The error's words, for a message. */
const why = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** Whether an error says the page is one the browser keeps extensions away from (chrome://, the web store). */
const isForbiddenPage = (error: unknown) => /cannot be scripted|cannot access|chrome:\/\/|extensions gallery|missing host permission|permission to access/i.test(why(error));

/** The message for a screenshot or script the browser refused. */
export const captureProblem = (error: unknown): string => (isForbiddenPage(error) ? t('snapshot.failed.page') : t('snapshot.failed.capture', { why: why(error) }));

/** The visible part of the active tab of window `windowId`, as PNG bytes. */
export async function captureVisible(windowId: number | undefined, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<Shot> {
  const take = () => browser.tabs.captureVisibleTab(windowId ?? browser.windows.WINDOW_ID_CURRENT, { format: 'png' });
  let dataUrl: string;
  try {
    dataUrl = await take().catch(async (error: unknown) => {
      if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(why(error))) throw error;
      await sleep(RATE_RETRY_MS);
      return take();
    });
  } catch (error) {
    return { ok: false, message: captureProblem(error) };
  }
  const decoded = decodeDataUrl(dataUrl, SHOT_MAX_BYTES);
  if (!decoded || 'tooLarge' in decoded) return { ok: false, message: t('snapshot.failed.capture', { why: 'image' }) };
  return { ok: true, bytes: decoded.bytes };
}

/** How a viewport's CSS pixels map to the screenshot's: the page's devicePixelRatio and its viewport's width. */
export interface ViewportScale {
  dpr: number;
  viewportWidth?: number;
}

/** `png` cropped to `rect` (CSS pixels of a viewport at `scale`), as PNG bytes; null when the rectangle misses the image. */
export async function cropPng(png: Uint8Array<ArrayBuffer>, rect: ViewportRect, scale: ViewportScale): Promise<Uint8Array<ArrayBuffer> | null> {
  const image = await createImageBitmap(new Blob([png], { type: 'image/png' }));
  try {
    const box = cropBox(rect, screenScale(scale.dpr, scale.viewportWidth, image.width), image);
    if (!box) return null;
    const canvas = new OffscreenCanvas(box.width, box.height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(image, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    return new Uint8Array(await blob.arrayBuffer());
  } finally {
    image.close();
  }
}

/** The visible tab cropped to `rect`; a rectangle off the screenshot is reported as a failed capture. */
export async function captureCropped(windowId: number | undefined, rect: ViewportRect, scale: ViewportScale): Promise<Shot> {
  const shot = await captureVisible(windowId);
  if (!shot.ok) return shot;
  try {
    const bytes = await cropPng(shot.bytes, rect, scale);
    return bytes ? { ok: true, bytes } : { ok: false, message: t('snapshot.failed.capture', { why: 'empty area' }) };
  } catch (error) {
    return { ok: false, message: t('snapshot.failed.capture', { why: why(error) }) };
  }
}

/** The region overlay's words in the member's language (the overlay cannot read the tables). */
export const regionPickerText = (): RegionPickerText => ({
  label: t('snapshot.region.label'),
  instructions: t('snapshot.region.instructions'),
  size: t('snapshot.region.size'),
});

/**
 * "Capture a region…": the overlay in the tab's top frame, then, once the member dragged and the
 * overlay is gone, the visible tab cropped to the rectangle. Null when the member cancelled.
 */
export async function captureRegion(tab: { id: number; windowId?: number }): Promise<Shot | null> {
  let answer: unknown;
  // The member may take a while to drag: a cheap API call now and then keeps an idle service
  // worker (30 s) from being stopped while it waits for the overlay's answer.
  const keepAlive = setInterval(() => void browser.runtime.getPlatformInfo().catch(() => {}), KEEP_ALIVE_MS);
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId: tab.id, frameIds: [0] },
      func: pickRegion,
      args: [regionPickerText(), MIN_DRAG_PX, PICK_TIMEOUT_MS],
    } as never);
    answer = (result as { result?: unknown } | undefined)?.result;
  } catch (error) {
    return { ok: false, message: captureProblem(error) };
  } finally {
    clearInterval(keepAlive);
  }
  const region = readPickedRegion(answer);
  if (!region) return null;
  return captureCropped(tab.windowId, region, region);
}
