import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { modulesToPath, QR_OPTIONS, qrDataUrl } from '@/lib/portrait/qr';

/** The dark cells an SVG path of `M x y h w v1 h-w z` runs covers, as "row,col" (margin removed). */
function darkCells(path: string, margin = QR_OPTIONS.margin): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let c = 0; c < Number(w); c++) cells.add(`${Number(y) - margin},${Number(x) - margin + c}`);
  }
  return cells;
}

function expectedCells(text: string): Set<string> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel });
  const cells = new Set<string>();
  for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) cells.add(`${r},${c}`);
  return cells;
}

describe('QR code of the H5Link', () => {
  const LINK = 'http://127.0.0.1:8788/h5/portrait/0123456789abcdef01234567';

  it('draws exactly the modules the qrcode package encodes for the link, in an SVG data URL', async () => {
    const url = await qrDataUrl(LINK);
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    const svg = decodeURIComponent(url.slice(url.indexOf(',') + 1));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    const size = QRCode.create(LINK, { errorCorrectionLevel: 'M' }).modules.size;
    expect(svg).toContain(`viewBox="0 0 ${size + 8} ${size + 8}"`);
    expect(svg).toContain('fill="#fff"');
    const path = /<path fill="#000" d="([^"]+)"/.exec(svg)![1]!;
    expect(darkCells(path)).toEqual(expectedCells(LINK));
  });

  it('differs for a different link', async () => {
    expect(await qrDataUrl(`${LINK}x`)).not.toBe(await qrDataUrl(LINK));
  });

  it('merges horizontal runs of dark modules', () => {
    const row = [true, true, false, true];
    expect(modulesToPath(4, (r, c) => r === 0 && row[c]!, 0)).toBe('M0 0h2v1h-2zM3 0h1v1h-1z');
  });
});
