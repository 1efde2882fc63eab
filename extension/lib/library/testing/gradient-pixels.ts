import type { Pixels } from '@/lib/library/image-hash';

/** A 64×64 gradient: the one picture every image decodes to in tests that stand in for decoding (happy-dom decodes none). */
export const GRADIENT: Pixels = (() => {
  const data = new Uint8ClampedArray(64 * 64 * 4);
  for (let i = 0; i < 64 * 64; i++) data.set([(i % 64) * 4, (i >> 6) * 4, 128, 255], i * 4);
  return { width: 64, height: 64, data };
})();

/** What `vi.mock('@/lib/library/decode-pixels', …)` answers: every image can be decoded, and is GRADIENT. */
export const decodesAsGradient = { canDecodePixels: () => true, decodePixels: async (): Promise<Pixels> => GRADIENT };
