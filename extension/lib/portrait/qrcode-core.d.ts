/**
 * The QR encoder of the `qrcode` package without its renderers (canvas, PNG, SVG string helpers)
 * or its promise/callback wrapper: the popup only needs the module matrix. Same function and
 * types as the package's public `create` (`@types/qrcode`).
 */
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions, QRCodeSegment } from 'qrcode';
  export function create(text: string | QRCodeSegment[], options?: QRCodeOptions): QRCode;
}
