import { parseAssetRef } from '../asset-ref';
import type { VideoCreateBody } from './schemas';

export type ReferenceKind = 'image' | 'video' | 'audio';
export type ReferenceRole = 'reference_image' | 'first_frame' | 'last_frame' | 'reference_video' | 'reference_audio';

/** A media input of a create request, with the parameter path that names it in errors. */
export interface Reference {
  /** e.g. `content[2].image_url` or `images[0]`. */
  param: string;
  kind: ReferenceKind;
  role: ReferenceRole;
  url: string;
  /** The library asset id for `asset://` references, else null. */
  assetId: string | null;
}

/** Every media input of a (schema-valid) create body, in request order. */
export function listReferences(body: VideoCreateBody): Reference[] {
  const refs: Reference[] = [];
  const add = (param: string, kind: ReferenceKind, role: ReferenceRole, url: string) =>
    refs.push({ param, kind, role, url, assetId: parseAssetRef(url) });
  body.content?.forEach((element, i) => {
    if (element.type === 'image_url') add(`content[${i}].image_url`, 'image', element.role, element.image_url.url);
    if (element.type === 'video_url') add(`content[${i}].video_url`, 'video', element.role, element.video_url.url);
    if (element.type === 'audio_url') add(`content[${i}].audio_url`, 'audio', element.role, element.audio_url.url);
  });
  if (body.image !== undefined) add('image', 'image', 'reference_image', body.image);
  body.images?.forEach((url, i) => add(`images[${i}]`, 'image', 'reference_image', url));
  return refs;
}

/** Whether the request carries a non-blank prompt or text element. */
export const hasTextInput = (body: VideoCreateBody): boolean =>
  Boolean(body.prompt?.trim()) || Boolean(body.content?.some((e) => e.type === 'text' && e.text.trim()));
