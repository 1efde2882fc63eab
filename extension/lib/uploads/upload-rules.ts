import { type AssetType, bytesProblem, checkDeclared, type MediaFormat, type MediaKind, mediaType, sniffFormat, UPLOAD_LIMITS, UPLOAD_TYPES } from '@@/shared';
import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';

/**
 * Whether bytes read from a page may be uploaded: the proxy's own rules (shared/media/media-kinds:
 * the types it takes, their limits, their magic bytes), applied before any byte goes out, so that
 * a refusal is said in the item at once and in the member's language.
 */

export type UploadCheck =
  | { ok: true; contentType: string; kind: MediaKind; type: AssetType }
  | { ok: false; message: string };

const ASSET_TYPES: Record<MediaKind, AssetType> = { image: 'Image', video: 'Video', audio: 'Audio' };
const KINDS: Record<AssetType, MediaKind> = { Image: 'image', Video: 'video', Audio: 'audio' };

/** The media kind of an asset type (`Image` -> `image`). */
export const kindOfAssetType = (type: AssetType): MediaKind => KINDS[type];

/** The first media type the proxy takes for a format (its main label), e.g. `png` -> `image/png`. */
export function typeOfFormat(format: MediaFormat): string | null {
  return Object.entries(UPLOAD_TYPES).find(([, accepted]) => accepted.formats[0] === format)?.[0] ?? null;
}

/** The formats the proxy takes, as the member reads them: `PNG, JPEG, …, WAV`. */
export const acceptedFormats = (): string => [...new Set(Object.values(UPLOAD_TYPES).flatMap((a) => a.formats))].map((f) => f.toUpperCase()).join(', ');

/** The most bytes worth reading for an item the menu says is of `type` (the largest limit when unsure). */
export const readLimitFor = (type: AssetType | null): number => (type ? UPLOAD_LIMITS[KINDS[type]] : Math.max(...Object.values(UPLOAD_LIMITS)));

/**
 * Checks what a page gave: its declared media type (Content-Type, or a `blob:`'s type), its first
 * bytes (at least SNIFF_BYTES) and its size. The bytes decide: a file labelled wrongly (or
 * `application/octet-stream`) is sent with the type of what it is, when the proxy takes that.
 */
export function checkUpload(declaredType: string | null | undefined, head: Uint8Array, size: number): UploadCheck {
  if (size === 0) return { ok: false, message: t('capture.refuse.empty') };
  const declared = mediaType(declaredType);
  const found = sniffFormat(head);
  const accepted = declared ? UPLOAD_TYPES[declared] : undefined;
  // The label when the bytes agree with it (keeps `video/quicktime` for a MOV), else the bytes' own type.
  const contentType = accepted && !bytesProblem({ type: declared!, formats: accepted.formats }, head) ? declared! : found ? typeOfFormat(found) : null;
  if (!contentType) {
    const named = found ? found.toUpperCase() : declared && !declared.startsWith('application/') ? declared : null;
    return { ok: false, message: named ? t('capture.refuse.type', { found: named, formats: acceptedFormats() }) : t('capture.refuse.typeUnknown', { formats: acceptedFormats() }) };
  }
  const verdict = checkDeclared(contentType, size);
  if (!verdict.ok) {
    const kind = UPLOAD_TYPES[contentType]!.kind;
    return { ok: false, message: t('capture.refuse.size', { kind: t(`capture.kind.${kind}`), size: formatSize(size), limit: formatSize(UPLOAD_LIMITS[kind]) }) };
  }
  return { ok: true, contentType: verdict.type, kind: verdict.kind, type: ASSET_TYPES[verdict.kind] };
}

/** The refusal for a file found larger than `limit` before all of it was read. */
export const tooLargeMessage = (type: AssetType, limit: number): string =>
  t('capture.refuse.sizeAtLeast', { kind: t(`capture.kind.${KINDS[type]}`), limit: formatSize(limit) });
