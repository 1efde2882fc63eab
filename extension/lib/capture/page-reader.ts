import { browser } from 'wxt/browser';

/**
 * Reads media where the browser can: in the clicked page's own context, through `activeTab` (granted
 * by the menu click) and `scripting`, never with access to all sites. Only the page can read a
 * `blob:` address it made, and only the page's request carries its cookies (`credentials: 'include'`).
 *
 * The functions below run in the page (serialized by `scripting.executeScript`, so self-contained,
 * their limits passed as arguments). The page keeps what it read in its isolated world (one entry
 * per read, under an id); the extension polls it for progress, then copies it out in chunks of
 * base64 text (`executeScript` answers are serialized as JSON: no ArrayBuffer, and one message must
 * stay well below the browser's 64 MB limit), and finally tells the page to forget it.
 */

export interface PageTarget {
  tabId: number;
  frameId?: number;
}

/** How the page's read stands (pollPageRead). */
export interface PageReadState {
  received: number;
  /** Content-Length, when the server said it. */
  total: number | null;
  done: boolean;
  /** `HTTP 403`, or the fetch's error. */
  error: string | null;
  /** Over the limit: reading stopped. */
  tooLarge: boolean;
  contentType: string;
  /** Bytes read, once done. */
  size: number | null;
}

interface PageRead extends Omit<PageReadState, 'size'> {
  blob: Blob | null;
}

// ---------------------------------------------------------------- in the page

/** In the page: the address's answer without the page's cookies (`credentials: 'omit'`), or the fetch's error. */
export async function checkWithoutCookies(url: string, timeoutMs: number): Promise<{ status: number; contentType: string } | { error: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const init: RequestInit = { credentials: 'omit', cache: 'no-store', redirect: 'follow', signal: controller.signal };
    let response = await fetch(url, { ...init, method: 'HEAD' });
    if (response.status === 405 || response.status === 501) {
      // A server without HEAD: the first byte only.
      response = await fetch(url, { ...init, headers: { Range: 'bytes=0-0' } });
      void response.body?.cancel().catch(() => {});
    }
    return { status: response.status, contentType: response.headers.get('content-type') ?? '' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** In the page: starts reading `url` with the page's cookies; answers at once (pollPageRead follows it). */
export function startPageRead(url: string, id: string, maxBytes: number): boolean {
  const scope = globalThis as unknown as { __arkbridgeReads?: Map<string, PageRead> };
  if (!scope.__arkbridgeReads) scope.__arkbridgeReads = new Map<string, PageRead>();
  const reads = scope.__arkbridgeReads;
  const job: PageRead = { received: 0, total: null, done: false, error: null, tooLarge: false, contentType: '', blob: null };
  reads.set(id, job);
  void (async () => {
    try {
      const response = await fetch(url, { credentials: 'include' });
      job.contentType = response.headers.get('content-type') ?? '';
      if (!response.ok) {
        job.error = `HTTP ${response.status}`;
        void response.body?.cancel().catch(() => {});
        return;
      }
      const length = Number(response.headers.get('content-length'));
      if (length > 0) job.total = length;
      if (length > maxBytes) {
        job.tooLarge = true;
        void response.body?.cancel().catch(() => {});
        return;
      }
      if (!response.body) {
        job.blob = await response.blob();
        job.received = job.blob.size;
        return;
      }
      const parts: Uint8Array<ArrayBuffer>[] = [];
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        job.received += value.byteLength;
        if (job.received > maxBytes) {
          job.tooLarge = true;
          void reader.cancel().catch(() => {});
          return;
        }
        parts.push(value as Uint8Array<ArrayBuffer>);
      }
      job.blob = new Blob(parts, { type: job.contentType });
    } catch (error) {
      job.error = error instanceof Error ? error.message : String(error);
    } finally {
      job.done = true;
    }
  })();
  return true;
}

/** In the page: how read `id` stands, or null when the page no longer has it (reloaded). */
export function pollPageRead(id: string): PageReadState | null {
  const job = (globalThis as unknown as { __arkbridgeReads?: Map<string, PageRead> }).__arkbridgeReads?.get(id);
  if (!job) return null;
  const { received, total, done, error, tooLarge, contentType, blob } = job;
  return { received, total, done, error, tooLarge, contentType, size: blob ? blob.size : null };
}

/** In the page: bytes `start` to `end` of read `id`, as base64; null when the page no longer has it. */
export function readPageChunk(id: string, start: number, end: number): Promise<string | null> {
  const job = (globalThis as unknown as { __arkbridgeReads?: Map<string, PageRead> }).__arkbridgeReads?.get(id);
  if (!job?.blob) return Promise.resolve(null);
  const blob = job.blob;
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result);
      resolve(text.slice(text.indexOf(',') + 1));
    };
    reader.onerror = () => resolve(null);
    reader.readAsDataURL(blob.slice(start, end));
  });
}

/** In the page: forgets read `id`. */
export function endPageRead(id: string): boolean {
  return (globalThis as unknown as { __arkbridgeReads?: Map<string, PageRead> }).__arkbridgeReads?.delete(id) ?? false;
}

// ---------------------------------------------------------------- in the extension

/** Runs `func` in the target frame; throws when the page cannot be scripted (no activeTab, a browser page). */
export async function inPage<A extends unknown[], R>(target: PageTarget, func: (...args: A) => R, args: A): Promise<Awaited<R> | undefined> {
  const [result] = await browser.scripting.executeScript({ target: { tabId: target.tabId, frameIds: [target.frameId ?? 0] }, func, args } as never);
  return (result as { result?: Awaited<R> } | undefined)?.result;
}

/** What a check without cookies says: `gated` when the site wants its cookies, `unknown` when it cannot tell. */
export type Access = 'public' | 'gated' | 'unknown';

/** Milliseconds the check without cookies may take; past that, the item is linked as before. */
export const ACCESS_CHECK_MS = 5_000;

/**
 * The verdict of a check without cookies: refused (401, 403) or answered with a web page (a
 * sign-in page instead of the file) means the site gates it; an error (a cross-origin address
 * without CORS, offline) tells nothing.
 */
export function accessOf(answer: { status: number; contentType: string } | { error: string } | null | undefined): Access {
  if (!answer || 'error' in answer) return 'unknown';
  if (answer.status === 401 || answer.status === 403) return 'gated';
  if (answer.status >= 200 && answer.status < 300 && /^text\/html\b/i.test(answer.contentType)) return 'gated';
  return answer.status >= 200 && answer.status < 400 ? 'public' : 'unknown';
}

/** Whether `url` answers without the page's cookies, asked from the page (so its own address needs no CORS). */
export async function checkAccess(target: PageTarget | undefined, url: string): Promise<Access> {
  if (!target || target.tabId < 0) return 'unknown';
  try {
    return accessOf(await inPage(target, checkWithoutCookies, [url, ACCESS_CHECK_MS]));
  } catch {
    return 'unknown'; // the page cannot be scripted: link it, as before
  }
}

export type PageReadResult =
  | { ok: true; bytes: Uint8Array<ArrayBuffer>; contentType: string }
  | { ok: false; reason: 'failed' | 'too-large' | 'timeout' | 'lost'; detail?: string };

export interface ReadOptions {
  /** Called while the page downloads: bytes so far, and the total when known. */
  onProgress?: (read: number, total: number | null) => void | Promise<void>;
  pollMs?: number;
  /** The whole read (download and copy) may take this long. */
  timeoutMs?: number;
  chunkBytes?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Bytes copied out of the page per `executeScript` call (as base64, a third more). */
export const CHUNK_BYTES = 2 * 1024 * 1024;
export const READ_TIMEOUT_MS = 5 * 60_000;

/** A read the page has started. */
export interface PageReadHandle {
  /** Follows the read to its end and copies the bytes out of the page. */
  finish(options?: ReadOptions): Promise<PageReadResult>;
  /** Stops following it and lets the page forget it. */
  cancel(): Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Decodes base64 into `into` at `offset`; answers the bytes written. */
export function decodeBase64Into(into: Uint8Array, offset: number, base64: string): number {
  const binary = atob(base64);
  if (offset + binary.length > into.length) throw new RangeError('more bytes than announced');
  for (let i = 0; i < binary.length; i++) into[offset + i] = binary.charCodeAt(i);
  return binary.length;
}

/**
 * Starts reading `url` in the page (with its cookies), at most `maxBytes`. Null when the page
 * cannot be scripted (no activeTab grant, a browser page): then nothing was read.
 */
export async function beginPageRead(target: PageTarget | undefined, url: string, maxBytes: number): Promise<PageReadHandle | null> {
  if (!target || target.tabId < 0) return null;
  const id = crypto.randomUUID();
  try {
    if (!(await inPage(target, startPageRead, [url, id, maxBytes]))) return null;
  } catch {
    return null;
  }
  const cancel = async () => {
    await inPage(target, endPageRead, [id]).catch(() => undefined);
  };
  return {
    cancel,
    async finish({ onProgress, pollMs = 200, timeoutMs = READ_TIMEOUT_MS, chunkBytes = CHUNK_BYTES, sleep = defaultSleep } = {}) {
      const deadline = Date.now() + timeoutMs;
      try {
        let state: PageReadState | null | undefined;
        for (;;) {
          state = await inPage(target, pollPageRead, [id]);
          if (!state) return { ok: false, reason: 'lost' };
          await onProgress?.(state.received, state.total);
          if (state.done) break;
          if (Date.now() > deadline) return { ok: false, reason: 'timeout' };
          await sleep(pollMs);
        }
        if (state.tooLarge) return { ok: false, reason: 'too-large', detail: String(state.total ?? state.received) };
        if (state.error || state.size === null) return { ok: false, reason: 'failed', detail: state.error ?? 'no bytes' };
        const bytes = new Uint8Array(state.size);
        let at = 0;
        while (at < state.size) {
          const end = Math.min(at + chunkBytes, state.size);
          const chunk = await inPage(target, readPageChunk, [id, at, end]);
          if (typeof chunk !== 'string') return { ok: false, reason: 'lost' };
          const written = decodeBase64Into(bytes, at, chunk);
          if (written !== end - at) return { ok: false, reason: 'failed', detail: 'the page gave fewer bytes than it read' };
          at = end;
          if (Date.now() > deadline) return { ok: false, reason: 'timeout' };
        }
        return { ok: true, bytes, contentType: state.contentType };
      } catch {
        return { ok: false, reason: 'lost' }; // the tab closed or navigated: the grant and the page are gone
      } finally {
        await cancel();
      }
    },
  };
}

/** `data:` media, decoded in the extension (no page needed); null when it is not a data URL. Too large: `tooLarge` with its size. */
export function decodeDataUrl(url: string, maxBytes: number): { bytes: Uint8Array<ArrayBuffer>; contentType: string } | { tooLarge: number } | null {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) return null;
  const meta = url.slice(5, comma);
  const data = url.slice(comma + 1);
  const base64 = /;base64$/i.test(meta);
  const contentType = (base64 ? meta.slice(0, -7) : meta).split(';')[0]!.trim() || 'text/plain';
  const estimate = base64 ? Math.floor((data.length * 3) / 4) : data.length;
  // Percent-encoded data shrinks when decoded: the estimate is an upper bound, refuse only what surely exceeds.
  if (base64 && estimate - 2 > maxBytes) return { tooLarge: estimate };
  try {
    if (base64) {
      const clean = data.replace(/\s+/g, '');
      const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
      const written = decodeBase64Into(bytes, 0, clean);
      return { bytes: bytes.slice(0, written), contentType };
    }
    const bytes = new Uint8Array(data.length);
    let length = 0;
    for (let i = 0; i < data.length; i++) {
      const hex = data[i] === '%' ? data.slice(i + 1, i + 3) : '';
      if (/^[0-9a-f]{2}$/i.test(hex)) {
        bytes[length++] = parseInt(hex, 16);
        i += 2;
      } else bytes[length++] = data.charCodeAt(i) & 0xff;
    }
    if (length > maxBytes) return { tooLarge: length };
    return { bytes: bytes.slice(0, length), contentType };
  } catch {
    return null;
  }
}
