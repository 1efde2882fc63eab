/**
 * Helpers of the screenshot and frame end-to-end test (test/e2e/screen-capture.test.ts): the
 * capture items' clicks through the service worker, and reading a PNG's size (from its IHDR) and colours (decoded by the
 * browser: no PNG decoder among the dependencies).
 */
import type { Page } from 'playwright-core';
import type { LaunchedExtension } from './chromium';

/** A capture item's click as the browser reports it (the fields the handler reads). */
export interface CaptureClick {
  menuItemId: 'arkbridge-capture-visible' | 'arkbridge-capture-region' | 'arkbridge-capture-frame';
  pageUrl: string;
  frameId?: number;
  mediaType?: 'video';
  srcUrl?: string;
}

/**
 * Calls the background's menu handler for a capture item in tab `tab`; resolves when the handler is
 * done (for a region: once the member dragged or cancelled, so do not await it before dragging).
 */
export function clickCapture(browser: LaunchedExtension, info: CaptureClick, tab: { id: number; title: string }): Promise<void> {
  return browser.serviceWorker.evaluate(
    async ({ info, tab }) => {
      const seam = (globalThis as unknown as { arkbridge: { onMenuClick(info: unknown, tab: unknown): Promise<void> } }).arkbridge;
      await seam.onMenuClick({ frameId: 0, editable: false, ...info }, tab);
    },
    { info, tab },
  );
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's width and height from its header (IHDR, the first chunk); null when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The share (0 to 1) of a PNG's pixels within `tolerance` of `rgb` on every channel, decoded in
 * `page` (any page of the browser).
 */
export function shareOfColour(page: Page, bytes: Uint8Array, rgb: [number, number, number], tolerance = 16): Promise<number> {
  return page.evaluate(
    async ({ base64, rgb, tolerance }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const image = await createImageBitmap(new Blob([data], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, image.width, image.height).data;
      let near = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (Math.abs(pixels[i]! - rgb[0]) <= tolerance && Math.abs(pixels[i + 1]! - rgb[1]) <= tolerance && Math.abs(pixels[i + 2]! - rgb[2]) <= tolerance) near++;
      }
      return near / (pixels.length / 4);
    },
    { base64: Buffer.from(bytes).toString('base64'), rgb, tolerance },
  );
}
