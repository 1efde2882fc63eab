/**
 * What media the proxy stores (uploads and kept outputs): the types it takes, their size limits,
 * and the formats recognised from their first bytes, so that a file labelled as one thing and made
 * of another is refused before it is stored. The extension checks the same rules before uploading.
 */

export type MediaKind = 'image' | 'video' | 'audio';
export type MediaFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'bmp' | 'tiff' | 'heic' | 'mp4' | 'mov' | 'mp3' | 'wav';

const MB = 1024 * 1024;

/** The service's limits per kind: images under 30 MB, video 50 MB, audio 15 MB. */
export const UPLOAD_LIMITS: Readonly<Record<MediaKind, number>> = { image: 30 * MB, video: 50 * MB, audio: 15 * MB };

/** Media types accepted for upload, with their kind and the formats their bytes may be. */
export const UPLOAD_TYPES: Readonly<Record<string, { kind: MediaKind; formats: readonly MediaFormat[] }>> = {
  'image/png': { kind: 'image', formats: ['png'] },
  'image/jpeg': { kind: 'image', formats: ['jpeg'] },
  'image/jpg': { kind: 'image', formats: ['jpeg'] },
  'image/webp': { kind: 'image', formats: ['webp'] },
  'image/gif': { kind: 'image', formats: ['gif'] },
  'image/bmp': { kind: 'image', formats: ['bmp'] },
  'image/x-ms-bmp': { kind: 'image', formats: ['bmp'] },
  'image/tiff': { kind: 'image', formats: ['tiff'] },
  'image/heic': { kind: 'image', formats: ['heic'] },
  'image/heif': { kind: 'image', formats: ['heic'] },
  // MP4 and QuickTime are one container family (ISO base media): either label takes either.
  'video/mp4': { kind: 'video', formats: ['mp4', 'mov'] },
  'video/quicktime': { kind: 'video', formats: ['mov', 'mp4'] },
  'audio/mpeg': { kind: 'audio', formats: ['mp3'] },
  'audio/mp3': { kind: 'audio', formats: ['mp3'] },
  'audio/wav': { kind: 'audio', formats: ['wav'] },
  'audio/x-wav': { kind: 'audio', formats: ['wav'] },
  'audio/wave': { kind: 'audio', formats: ['wav'] },
  'audio/vnd.wave': { kind: 'audio', formats: ['wav'] },
};

/** Bytes `sniffFormat` needs to decide. */
export const SNIFF_BYTES = 16;

/** The media type of a Content-Type header (parameters and case dropped), or null. */
export function mediaType(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() || null;
}

const ascii = (bytes: Uint8Array, at: number, text: string): boolean => {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'];
/** Top-level atoms a QuickTime file without an `ftyp` box may start with. */
const QUICKTIME_ATOMS = ['moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

/** The format of a file from its first bytes (at least SNIFF_BYTES when it is that long), or null. */
export function sniffFormat(bytes: Uint8Array): MediaFormat | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 'PNG\r\n\x1a\n')) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'webp';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'wav';
  if (ascii(b, 0, 'BM') && b.length >= 14) return 'bmp';
  if (ascii(b, 0, 'II*\0') || ascii(b, 0, 'MM\0*')) return 'tiff';
  if (ascii(b, 4, 'ftyp')) {
    const brand = String.fromCharCode(...b.subarray(8, 12));
    if (HEIF_BRANDS.includes(brand)) return 'heic';
    return brand === 'qt  ' ? 'mov' : 'mp4';
  }
  if (QUICKTIME_ATOMS.some((atom) => ascii(b, 4, atom))) return 'mov';
  if (ascii(b, 0, 'ID3')) return 'mp3';
  // An MPEG audio frame: 11 sync bits, a valid version and layer III.
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x18) !== 0x08 && (b[1]! & 0x06) === 0x02) return 'mp3';
  return null;
}

/** A declared upload: what it will be held to, or why it is refused before any byte is read. */
export type Declared =
  | { ok: true; type: string; kind: MediaKind; limit: number; formats: readonly MediaFormat[] }
  | { ok: false; status: 413 | 415; message: string };

const KIND_NAMES: Record<MediaKind, string> = { image: 'an image', video: 'a video', audio: 'audio' };
const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** Whether a declared type is one we take, and its limit (before any byte is read). */
export function checkDeclared(contentType: string | null | undefined, size: number | null): Declared {
  const type = mediaType(contentType);
  const accepted = type ? UPLOAD_TYPES[type] : undefined;
  if (!accepted) {
    return { ok: false, status: 415, message: `Content-Type ${type ? type.slice(0, 64) : '(none)'} is not a media type the library takes: images (PNG, JPEG, WebP, GIF, BMP, TIFF, HEIC), video (MP4, MOV) or audio (MP3, WAV).` };
  }
  const limit = UPLOAD_LIMITS[accepted.kind];
  if (size !== null && size > limit) return { ok: false, status: 413, message: `body: the file is ${megabytes(size)}; ${KIND_NAMES[accepted.kind]} may be at most ${megabytes(limit)}.` };
  return { ok: true, type: type!, kind: accepted.kind, limit, formats: accepted.formats };
}

/** Why the first bytes are not what the declared type says, or null when they are. */
export function bytesProblem(declared: { type: string; formats: readonly MediaFormat[] }, head: Uint8Array): string | null {
  const found = sniffFormat(head);
  if (found && declared.formats.includes(found)) return null;
  return found
    ? `The file is labelled ${declared.type} but its bytes are ${found.toUpperCase()}: send it with the matching Content-Type.`
    : `The file is labelled ${declared.type} but its bytes are not ${declared.formats.map((f) => f.toUpperCase()).join(' or ')}.`;
}
