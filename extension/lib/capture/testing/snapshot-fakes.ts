import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/**
 * Test fakes for screenshots (tests only): `tabs.captureVisibleTab` answering a PNG of a given size,
 * and createImageBitmap / OffscreenCanvas (absent from happy-dom) recording what is cropped.
 */

/** A 1×1 PNG: the bytes the upload rules sniff as PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const pngBytes = (): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));

export interface ScreenFakes {
  capture: ReturnType<typeof vi.fn>;
  /** Each crop drawn: the source box in the screenshot's pixels, and the canvas size. */
  crops: { sx: number; sy: number; sw: number; sh: number; canvas: [number, number] }[];
}

/** Installs the fakes; the screenshot is `width` × `height` pixels. */
export function fakeScreen(width = 2560, height = 1440): ScreenFakes {
  const crops: ScreenFakes['crops'] = [];
  const capture = vi.fn(async (_windowId?: number, _options?: object) => `data:image/png;base64,${PNG_BASE64}`);
  (fakeBrowser.tabs as unknown as { captureVisibleTab: typeof capture }).captureVisibleTab = capture;
  vi.stubGlobal('createImageBitmap', async () => ({ width, height, close() {} }));
  vi.stubGlobal(
    'OffscreenCanvas',
    class {
      constructor(
        readonly width: number,
        readonly height: number,
      ) {}
      getContext() {
        return {
          drawImage: (_image: unknown, sx: number, sy: number, sw: number, sh: number) => crops.push({ sx, sy, sw, sh, canvas: [this.width, this.height] }),
        };
      }
      async convertToBlob() {
        return new Blob([pngBytes()], { type: 'image/png' });
      }
    },
  );
  return { capture, crops };
}
