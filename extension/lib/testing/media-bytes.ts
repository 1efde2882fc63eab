/** Bytes that pass the proxy's magic-number checks (shared/media/media-kinds), padded to a size. */

const padded = (head: number[], size: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  for (let i = head.length; i < bytes.length; i++) bytes[i] = i % 251;
  return bytes;
};
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

export const pngBytes = (size = 1024) => padded([0x89, ...ascii('PNG\r\n\x1a\n'), 0, 0, 0, 13, ...ascii('IHDR')], size);
export const jpegBytes = (size = 1024) => padded([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii('JFIF')], size);
export const mp4Bytes = (size = 4096) => padded([0, 0, 0, 24, ...ascii('ftypisom'), 0, 0, 2, 0, ...ascii('isom')], size);
export const mp3Bytes = (size = 2048) => padded([...ascii('ID3'), 4, 0, 0, 0, 0, 0, 0], size);
export const svgBytes = () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>') as Uint8Array<ArrayBuffer>;

/** A `data:` address of `bytes`. */
export function dataUrl(type: string, bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:${type};base64,${btoa(binary)}`;
}
