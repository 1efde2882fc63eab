/** Byte helpers shared by the Workers and the extension: hex text, random ids, SHA-256, comparison in constant time, bounded reads. */

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lower-case hex of `bytes`. */
export function hex(bytes: ArrayBuffer | Uint8Array): string {
  let out = '';
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) out += HEX[b];
  return out;
}

/** `count` random bytes as hex (2 x `count` characters). */
export const randomHex = (count: number): string => hex(crypto.getRandomValues(new Uint8Array(count)));

/** SHA-256 of the UTF-8 of `text`, as hex. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', typeof data === 'string' ? (new TextEncoder().encode(data) as Uint8Array<ArrayBuffer>) : data));
}

/**
 * Whether `a` and `b` are equal, in time that depends only on their length: for secrets and
 * their hashes, where an early exit would tell an attacker how much of a guess was right.
 */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * A stream's bytes, or null (the stream cancelled, read no further) once it has more than `limit`:
 * counted as they arrive, whatever a declared length claimed.
 */
export async function bytesUpTo(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
