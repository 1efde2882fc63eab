import { create } from 'qrcode';

/**
 * A QR code as SVG markup, drawn from the qrcode library's module matrix (its own SVG renderer
 * works too, but this keeps the output to one path and no inline style, for the console's CSP).
 */
export function qrSvg(text: string, label: string): string {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const quiet = 4;
  let path = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (modules.get(y, x)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  }
  const total = size + quiet * 2;
  const safeLabel = label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<svg class="qr" viewBox="0 0 ${total} ${total}" role="img" aria-label="${safeLabel}" shape-rendering="crispEdges"><rect width="${total}" height="${total}" fill="#ffffff"/><path d="${path}" fill="#000000"/></svg>`;
}
