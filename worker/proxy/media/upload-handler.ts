import { bytesProblem, checkDeclared, randomHex, SNIFF_BYTES, type Declared } from '../../../shared';
import { ledgerOf } from '../ledger/ledger-access';
import { mediaUrlTtlSeconds } from '../proxy-settings';
import { Sha256 } from '../signing/sha256';
import { signedAddress } from './media-address';
import type { MediaEnv } from './media-env';
import { objectKey, parseMediaId, uploadId, uploadsPrefix, withMetadata } from './media-ids';

/**
 * `POST /proxy/uploads`: the body streams into R2 as it arrives, never held whole in the isolate.
 * Type and size are checked from the headers before a byte is read; the first bytes against the
 * declared type before anything is stored; the count against Content-Length as it streams.
 */

export interface UploadAnswer {
  id: string;
  url: string;
  /** Unix seconds: the address stops working then, and the upload is deleted soon after. */
  expiresAt: number;
  size: number;
  contentType: string;
  sha256: string;
  name: string | null;
}

export type Refusal = { status: number; code: string; message: string; param?: string };

const NAME_MAX = 200;

/** Why the body was refused while it streamed: kept by the transform, answered by the handler. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** A display name for the upload (`?name=`): at most 200 characters, control characters dropped. */
export function uploadName(raw: string | undefined): { ok: true; name: string | null } | { ok: false; refusal: Refusal } {
  if (raw === undefined || raw === '') return { ok: true, name: null };
  if (raw.length > NAME_MAX) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: `name: must be at most ${NAME_MAX} characters.`, param: 'name' } };
  return { ok: true, name: raw.replace(/[\u0000-\u001f\u007f]/g, '') };
}

/** The declared length: Content-Length is required, so that R2 takes the body as a stream and a too-large one is refused unread. */
export function declaredLength(header: string | undefined): { ok: true; length: number } | { ok: false; refusal: Refusal } {
  if (header === undefined) return { ok: false, refusal: { status: 411, code: 'length_required', message: 'Send the file with a Content-Length header (browsers and curl do for a file or a Blob).' } };
  if (!/^\d{1,12}$/.test(header)) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: 'Content-Length: must be a whole number of bytes.', param: 'Content-Length' } };
  const length = Number(header);
  if (length === 0) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: 'body: the file is empty.', param: 'body' } };
  return { ok: true, length };
}

/** Checks the first bytes and counts the rest; hashes everything that passes. */
function checkingStream(declared: Extract<Declared, { ok: true }>, length: number, hash: Sha256): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let checked = false;
  const release = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const head = new Uint8Array(Math.min(heldBytes, SNIFF_BYTES));
    let at = 0;
    for (const chunk of held) {
      if (at >= head.length) break;
      head.set(chunk.subarray(0, head.length - at), at);
      at += Math.min(chunk.length, head.length - at);
    }
    const problem = bytesProblem(declared, head);
    if (problem) throw new Refused({ status: 415, code: 'unsupported_media_type', message: problem });
    checked = true;
    for (const chunk of held) controller.enqueue(chunk);
    held = [];
  };
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > length) throw new Refused({ status: 400, code: 'invalid_parameter', message: `body: longer than its Content-Length (${length} bytes).`, param: 'body' });
      hash.update(chunk);
      if (checked) return controller.enqueue(chunk);
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (heldBytes >= SNIFF_BYTES) release(controller);
    },
    flush(controller) {
      if (!checked) release(controller);
      if (seen !== length) throw new Refused({ status: 400, code: 'invalid_parameter', message: `body: ${seen} bytes arrived of the ${length} its Content-Length announced.`, param: 'body' });
    },
  });
}

export async function handleUpload(
  env: MediaEnv,
  member: string,
  request: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  origin: string,
  rawName: string | undefined,
): Promise<{ ok: true; answer: UploadAnswer } | { ok: false; refusal: Refusal }> {
  const secret = env.MEDIA_URL_SECRET;
  if (!secret) return { ok: false, refusal: { status: 503, code: 'media_store_not_configured', message: "The proxy's media store is not configured: its operator must set MEDIA_URL_SECRET." } };
  const name = uploadName(rawName);
  if (!name.ok) return name;
  const length = declaredLength(request.headers.get('content-length') ?? undefined);
  if (!length.ok) return length;
  const declared = checkDeclared(request.headers.get('content-type'), length.length);
  if (!declared.ok) return { ok: false, refusal: { status: declared.status, code: declared.status === 413 ? 'request_too_large' : 'unsupported_media_type', message: declared.message, param: declared.status === 413 ? 'body' : 'Content-Type' } };
  if (!request.body) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: 'body: the file is empty.', param: 'body' } };

  const id = uploadId(member, randomHex(12));
  const key = objectKey(parseMediaId(id)!);
  const expiresAt = Math.floor(Date.now() / 1000) + mediaUrlTtlSeconds(env);
  const hash = new Sha256();
  const fixed = new FixedLengthStream(length.length);
  const piping = request.body.pipeThrough(checkingStream(declared, length.length, hash)).pipeTo(fixed.writable);
  const storing = env.MEDIA.put(key, fixed.readable, {
    httpMetadata: { contentType: declared.type },
    customMetadata: { member, expiresAt: String(expiresAt), ...(name.name ? { name: name.name } : {}) },
  });
  const [piped, stored] = await Promise.allSettled([piping, storing]);
  if (piped.status === 'rejected' || stored.status === 'rejected') {
    // A failed put stores nothing; delete all the same in case the bytes landed before the refusal.
    await env.MEDIA.delete(key).catch(() => undefined);
    const reason = piped.status === 'rejected' ? piped.reason : (stored as PromiseRejectedResult).reason;
    if (reason instanceof Refused) return { ok: false, refusal: reason.refusal };
    return { ok: false, refusal: { status: 502, code: 'media_store_failed', message: 'The upload could not be stored; nothing was kept. Try again.' } };
  }
  await ledgerOf(env).addStorage(member, 'uploads', length.length);
  return {
    ok: true,
    answer: { id, url: signedAddress(secret, origin, id, expiresAt), expiresAt, size: length.length, contentType: declared.type, sha256: hash.hex(), name: name.name },
  };
}

/** `DELETE /proxy/uploads/:id`: only the member's own; another's id is as unknown as a missing one. */
export async function deleteUpload(env: MediaEnv, member: string, id: string): Promise<boolean> {
  const parsed = parseMediaId(id);
  if (!parsed || parsed.kind !== 'upload' || parsed.member !== member) return false;
  const key = objectKey(parsed);
  const head = await env.MEDIA.head(key);
  if (!head) return false;
  await env.MEDIA.delete(key);
  await ledgerOf(env).addStorage(member, 'uploads', -head.size);
  return true;
}

export interface UploadItem {
  id: string;
  size: number;
  contentType: string | null;
  name: string | null;
  expiresAt: number;
  uploadedAt: string;
}

/** `GET /proxy/uploads`: the member's uploads, a page at a time (R2 lists only under their prefix). */
export async function listUploads(env: MediaEnv, member: string, cursor: string | undefined): Promise<{ uploads: UploadItem[]; cursor: string | null }> {
  const page = await env.MEDIA.list(withMetadata({ prefix: uploadsPrefix(member), cursor, limit: 1000 }));
  return {
    uploads: page.objects.map((o) => ({
      id: o.key.slice(uploadsPrefix(member).length),
      size: o.size,
      contentType: o.httpMetadata?.contentType ?? null,
      name: o.customMetadata?.name ?? null,
      expiresAt: Number(o.customMetadata?.expiresAt ?? 0),
      uploadedAt: o.uploaded.toISOString(),
    })),
    cursor: page.truncated ? page.cursor : null,
  };
}
