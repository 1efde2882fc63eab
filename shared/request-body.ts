/**
 * Request bodies as the proxy and the sandbox read them: a size limit per route, strict UTF-8, a
 * nesting limit before `JSON.parse`, and clipped echoes of what a caller sent. Every step is
 * linear in the body and bounded by its limit, so one request cannot stall a Worker for others.
 */

/** Largest body of each kind of route, in bytes. */
export const BODY_LIMITS = {
  /** `/api/v3`, `/proxy/*` and `/admin/*` JSON: the largest real request is a few kilobytes. */
  json: 1024 * 1024,
  /** `POST /v1/video/generations`: room for one `data:` image at its 10 MB cap plus the rest. */
  videoCreate: 16 * 1024 * 1024,
} as const;

/** Deepest JSON nesting accepted; the deepest real request (a content element's URL) is 4. */
export const JSON_DEPTH_MAX = 32;

/** How much of a caller's value a message or a log line repeats. */
export const ECHO_MAX = 64;

/** A readable size: `1 MB`, `16 MB`, `512 KB`. */
export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;

/** The message of a body over `limit` bytes. */
export const tooLargeMessage = (limit: number): string =>
  `body: must be at most ${formatBytes(limit)} (${limit} bytes); send large media by URL`;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of `bytes`, or null when they are not valid UTF-8 (never silently U+FFFD). */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The message of a body that is not UTF-8. */
export const NOT_UTF8 = 'body: is not valid UTF-8 text';

/**
 * Whether `text` nests arrays and objects deeper than `max`, in one pass that skips strings. Run
 * before `JSON.parse` so that nothing downstream (schemas, hashing, logging) meets a deep value.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A JSON body, or why it is not one (`body: ...`, or the path of a string that cannot be stored
 * as text). Bounded: the nesting is checked before parsing, so the walk below is at most 32 deep.
 */
export function parseJsonBody(text: string): ParsedBody {
  if (nestsDeeperThan(text, JSON_DEPTH_MAX)) return { ok: false, message: `body: is nested deeper than ${JSON_DEPTH_MAX} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'body: is not valid JSON' };
  }
  const broken = illFormedString(value);
  if (broken) return { ok: false, message: `${clip(broken)}: must be valid Unicode text (it holds an unpaired surrogate escape such as \\ud800)` };
  return { ok: true, value };
}

/** Whether `s` holds an unpaired UTF-16 surrogate (which storage would turn into U+FFFD). */
export function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return true; // a low surrogate without a high one before it
    const next = s.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    i++;
  }
  return false;
}

/**
 * The path (`Name`, `Filter.GroupIds[1]`, `body`) of the first string, key or value, holding an
 * unpaired surrogate; null when every string is well-formed. JSON allows `"\ud800"`, but such a
 * string cannot be stored as text: it would come back altered.
 */
export function illFormedString(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedString(value[i], `${path || 'body'}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (hasLoneSurrogate(key)) return at;
      const found = illFormedString(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** `value` for a message or a log line: at most `max` characters, marked when cut. */
export const clip = (value: string, max = ECHO_MAX): string => (value.length > max ? `${value.slice(0, max)}… (${value.length} characters)` : value);

/** `text` as a sentence: a full stop added unless it already ends with one (no `..`). */
export const sentence = (text: string): string => (/[.!?。]$/.test(text) ? text : `${text}.`);

/** A JSON body from its bytes: strict UTF-8, then `parseJsonBody`. */
export function parseJsonBytes(bytes: ArrayBuffer | Uint8Array): ParsedBody {
  const text = decodeUtf8(bytes);
  return text === null ? { ok: false, message: NOT_UTF8 } : parseJsonBody(text);
}
