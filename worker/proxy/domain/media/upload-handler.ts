import { bytesProblem, check, checkDeclared, labelOrNullField, randomHex, SNIFF_BYTES } from '../../../../shared';
import type { StorageLedger } from '../ledger/ledger-port';
import { mediaUrlTtlSeconds } from '../../infra/settings/proxy-settings';
import { signedAddress } from './media-address';
import type { MediaEnv } from './media-env';
import { mediaStoreOff } from './media-store-off';
import { objectKey, parseMediaId, uploadId, uploadsPrefix, withMetadata } from './media-ids';
import type { UploadIndexPort } from './upload-index';

/**
 * `POST /proxy/uploads`: the body streams into R2 as it arrives, never held whole in the isolate.
 * Type and size are checked from the headers before a byte is read; the first bytes against the
 * declared type before anything is stored; the count against Content-Length as it streams. The
 * bytes go to R2 and to the SHA-256 through native streams (a FixedLengthStream, a DigestStream),
 * read in blocks of 1 MB into two buffers used in turn: JS handles a few dozen blocks for a 50 MB
 * file, never the bytes one chunk at a time, and hashes nothing itself.
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
  /** True when these bytes were already the member's upload: that one is answered (200), nothing was stored again. */
  existing: boolean;
}

export type Refusal = { status: number; code: string; message: string; param?: string };

const NAME_MAX = 200;

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** By the label rule (shared/labels.ts), with which `photo<U+202E>gpj.exe` no longer shows as `photoexe.jpg`. */
const nameField = labelOrNullField(NAME_MAX);

/** A display name for the upload (`?name=`): at most 200 characters, cleaned by the label rule; none when nothing is left. */
export function uploadName(raw: string | undefined): { ok: true; name: string | null } | { ok: false; refusal: Refusal } {
  if (raw === undefined || raw === '') return { ok: true, name: null };
  const checked = check(nameField, raw, 'name');
  if (!checked.ok) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: `${checked.problem.message}.`, param: 'name' } };
  return { ok: true, name: checked.value };
}

/** The declared length: Content-Length is required, so that R2 takes the body as a stream and a too-large one is refused unread. */
export function declaredLength(header: string | undefined): { ok: true; length: number } | { ok: false; refusal: Refusal } {
  if (header === undefined) return { ok: false, refusal: { status: 411, code: 'length_required', message: 'Send the file with a Content-Length header (browsers and curl do for a file or a Blob).' } };
  if (!/^\d{1,12}$/.test(header)) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: 'Content-Length: must be a whole number of bytes.', param: 'Content-Length' } };
  const length = Number(header);
  if (length === 0) return { ok: false, refusal: { status: 400, code: 'invalid_parameter', message: 'body: the file is empty.', param: 'body' } };
  return { ok: true, length };
}

/** The body's first bytes, at least SNIFF_BYTES unless it ends sooner: checked before anything is stored. */
async function readHead(body: ReadableStream<Uint8Array>): Promise<{ chunks: Uint8Array[]; bytes: number; ended: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < SNIFF_BYTES) {
      const { done, value } = await reader.read();
      if (done) return { chunks, bytes, ended: true };
      chunks.push(value);
      bytes += value.byteLength;
    }
    return { chunks, bytes, ended: false };
  } finally {
    reader.releaseLock();
  }
}

function concat(chunks: Uint8Array[], bytes: number): Uint8Array {
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const chunk of chunks) (all.set(chunk, at), (at += chunk.byteLength));
  return all;
}

const lengthRefusal = (message: string): Refusal => ({ status: 400, code: 'invalid_parameter', message, param: 'body' });
const longer = (length: number) => lengthRefusal(`body: longer than its Content-Length (${length} bytes).`);
const shorter = (seen: number, length: number) => lengthRefusal(`body: ${seen} bytes arrived of the ${length} its Content-Length announced.`);

/** Why the body was refused while it streamed: thrown by the pump, answered by the handler. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** The rest of the body is read a block at a time: a few dozen turns of JS for 50 MB, not thousands of chunks. */
const BLOCK = 1024 * 1024;

/**
 * Reads into the buffer it is given, at least its size unless the body ends (a BYOB reader's
 * readAtLeast: the request body from the network is a byte stream); null at the end. A body made
 * in JS (tests) is not a byte stream: its chunks come as they are.
 */
function blockReader(body: ReadableStream<Uint8Array>): { read(into: Uint8Array): Promise<Uint8Array | null>; release(): void } {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    const reader = body.getReader();
    return { read: async () => ((await reader.read()).value ?? null), release: () => reader.releaseLock() };
  }
  const reader = byob;
  return {
    read: async (into) => {
      const { done, value } = await reader.readAtLeast(into.byteLength, into);
      return value && value.byteLength > 0 ? value : done ? null : new Uint8Array(0);
    },
    release: () => reader.releaseLock(),
  };
}

/**
 * Writes the head, then the rest of the body a block at a time (two buffers in turn: one filling
 * while the other is written) to the store and the hash, both native streams, counting against
 * Content-Length; closes both at the end. Throws Refused for a body of another length. `stop`
 * (the put failed) errors the store, so that a write it will never read does not wait forever.
 */
async function pump(body: ReadableStream<Uint8Array>, head: Uint8Array, ended: boolean, length: number, store: WritableStream, hash: WritableStream, stop: AbortSignal): Promise<void> {
  const storeWriter = store.getWriter();
  const hashWriter = hash.getWriter();
  const reader = ended ? null : blockReader(body);
  let writing: Promise<unknown> = Promise.resolve();
  stop.addEventListener('abort', () => void storeWriter.abort(stop.reason).catch(() => undefined), { once: true });
  try {
    let seen = head.byteLength;
    writing = Promise.all([hashWriter.write(head), storeWriter.write(head)]);
    if (reader) {
      const buffers = [new ArrayBuffer(BLOCK), new ArrayBuffer(BLOCK)];
      for (let turn = 0; ; turn = 1 - turn) {
        // This buffer's last writes were awaited a turn ago: it is free.
        const block = await reader.read(new Uint8Array(buffers[turn]!));
        if (!block) break;
        if (block.byteLength === 0) continue;
        if (block.buffer.byteLength === BLOCK) buffers[turn] = block.buffer as ArrayBuffer; // the same memory, handed back by the BYOB read
        seen += block.byteLength;
        if (seen > length) throw new Refused(longer(length));
        await writing;
        writing = Promise.all([hashWriter.write(block), storeWriter.write(block)]);
      }
    }
    await writing;
    if (seen !== length) throw new Refused(shorter(seen, length));
    await Promise.all([hashWriter.close(), storeWriter.close()]);
  } catch (error) {
    writing.catch(() => undefined); // fails with the aborts below
    try {
      reader?.release();
    } catch {
      // a read still pending: the cancel below ends it
    }
    body.cancel(error).catch(() => undefined);
    storeWriter.abort(error).catch(() => undefined);
    hashWriter.abort(error).catch(() => undefined);
    throw error;
  }
}

export async function handleUpload(
  env: MediaEnv,
  ledger: StorageLedger,
  index: UploadIndexPort,
  member: string,
  request: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  origin: string,
  rawName: string | undefined,
): Promise<{ ok: true; answer: UploadAnswer } | { ok: false; refusal: Refusal }> {
  const off = mediaStoreOff(env);
  if (off) return { ok: false, refusal: { ...off } };
  const secret = env.MEDIA_URL_SECRET!;
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
  const body = request.body;
  let head;
  try {
    head = await readHead(body);
  } catch {
    return { ok: false, refusal: { status: 502, code: 'media_store_failed', message: 'The upload could not be stored; nothing was kept. Try again.' } };
  }
  const first = concat(head.chunks, head.bytes);
  const refused = (refusal: Refusal) => {
    if (!head.ended) body.cancel().catch(() => undefined); // nothing more is read
    return { ok: false as const, refusal };
  };
  if (head.bytes > length.length) return refused(longer(length.length));
  const problem = bytesProblem(declared, first.subarray(0, SNIFF_BYTES));
  if (problem) return refused({ status: 415, code: 'unsupported_media_type', message: problem });
  if (head.ended && head.bytes !== length.length) return refused(shorter(head.bytes, length.length));

  const fixed = new FixedLengthStream(length.length);
  const digest = new crypto.DigestStream('SHA-256');
  digest.digest.catch(() => undefined); // rejects when the upload fails: answered below
  const putFailed = new AbortController();
  const storing = env.MEDIA.put(key, fixed.readable, {
    httpMetadata: { contentType: declared.type },
    customMetadata: { member, expiresAt: String(expiresAt), ...(name.name ? { name: name.name } : {}) },
  });
  storing.catch((error: unknown) => putFailed.abort(error));
  const [piped, stored] = await Promise.allSettled([pump(body, first, head.ended, length.length, fixed.writable, digest, putFailed.signal), storing]);
  if (piped.status === 'rejected' || stored.status === 'rejected') {
    // A failed put stores nothing; delete all the same in case the bytes landed before the failure.
    await env.MEDIA.delete(key).catch(() => undefined);
    if (piped.status === 'rejected' && piped.reason instanceof Refused) return { ok: false, refusal: piped.reason.refusal };
    return { ok: false, refusal: { status: 502, code: 'media_store_failed', message: 'The upload could not be stored; nothing was kept. Try again.' } };
  }
  const sha256 = hex(await digest.digest);
  let kept: UploadAnswer | null;
  try {
    kept = await alreadyKept(env, index, { sha256, id, expiresAt, origin });
  } catch {
    await env.MEDIA.delete(key).catch(() => undefined);
    return { ok: false, refusal: { status: 502, code: 'media_store_failed', message: 'The upload could not be stored; nothing was kept. Try again.' } };
  }
  if (kept) {
    // The same bytes are the member's upload already: this copy goes, that one is answered.
    await env.MEDIA.delete(key);
    return { ok: true, answer: kept };
  }
  await ledger.addStorage(member, 'uploads', length.length);
  return {
    ok: true,
    answer: { id, url: signedAddress(secret, origin, id, expiresAt), expiresAt, size: length.length, contentType: declared.type, sha256, name: name.name, existing: false },
  };
}

/**
 * The member's live upload of the same bytes, when there is one (then this one is not kept); null
 * when this one is now recorded as the member's upload of these bytes. A recorded upload gone from
 * the store (an R2 lifecycle rule, a cleanup) gives way to this one.
 */
async function alreadyKept(env: MediaEnv, index: UploadIndexPort, fresh: { sha256: string; id: string; expiresAt: number; origin: string }): Promise<UploadAnswer | null> {
  const existing = await index.claimUpload(fresh.sha256, fresh.id, fresh.expiresAt);
  if (existing === null) return null;
  const parsed = parseMediaId(existing);
  const head = parsed && (await env.MEDIA.head(objectKey(parsed)));
  if (!head) {
    await index.claimUpload(fresh.sha256, fresh.id, fresh.expiresAt, true);
    return null;
  }
  const expiresAt = Number(head.customMetadata?.expiresAt ?? 0);
  return {
    id: existing,
    url: signedAddress(env.MEDIA_URL_SECRET!, fresh.origin, existing, expiresAt),
    expiresAt,
    size: head.size,
    contentType: head.httpMetadata?.contentType ?? 'application/octet-stream',
    sha256: fresh.sha256,
    name: head.customMetadata?.name ?? null,
    existing: true,
  };
}

/** `DELETE /proxy/uploads/:id`: only the member's own; another's id is as unknown as a missing one. */
export async function deleteUpload(env: MediaEnv, ledger: StorageLedger, index: UploadIndexPort, member: string, id: string): Promise<boolean> {
  const parsed = parseMediaId(id);
  if (!parsed || parsed.kind !== 'upload' || parsed.member !== member) return false;
  const key = objectKey(parsed);
  const head = await env.MEDIA.head(key);
  if (!head) return false;
  await index.forgetUpload(id);
  await env.MEDIA.delete(key);
  await ledger.addStorage(member, 'uploads', -head.size);
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
