/**
 * The QR code of a portrait session's H5Link, as an SVG data URL for an <img>.
 *
 * Only the `qrcode` package's encoder is loaded, and only when a code is first drawn (a separate
 * chunk): the popup's other tabs never pay for it. SVG needs no canvas, stays sharp at any size and
 * is drawn dark on white whatever the popup's color scheme, so phones can read it.
 */

/** Error correction M (15 %) and the standard quiet zone of 4 modules. */
export const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/** The dark modules of a QR matrix as one SVG path: a `M x y h w v1 h-w z` rectangle per horizontal run. */
export function modulesToPath(size: number, isDark: (row: number, col: number) => boolean, margin: number = QR_OPTIONS.margin): string {
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; ) {
      if (!isDark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && isDark(row, col)) col++;
      const width = col - start;
      path += `M${start + margin} ${row + margin}h${width}v1h-${width}z`;
    }
  }
  return path;
}

/** A complete SVG document for a matrix of `size` modules. */
export function qrSvg(size: number, isDark: (row: number, col: number) => boolean, margin: number = QR_OPTIONS.margin): string {
  const full = size + margin * 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" shape-rendering="crispEdges">` +
    `<rect width="${full}" height="${full}" fill="#fff"/>` +
    `<path fill="#000" d="${modulesToPath(size, isDark, margin)}"/></svg>`
  );
}

/** `text` (the H5Link) as a QR code in an `image/svg+xml` data URL. */
export async function qrDataUrl(text: string): Promise<string> {
  const { create } = await import('qrcode/lib/core/qrcode.js');
  const { modules } = create(text, { errorCorrectionLevel: QR_OPTIONS.errorCorrectionLevel });
  const svg = qrSvg(modules.size, (row, col) => Boolean(modules.get(row, col)));
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
