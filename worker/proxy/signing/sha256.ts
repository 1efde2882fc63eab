/**
 * SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) in plain JS, synchronous and incremental, for
 * the signer's hot path. Inside workerd each WebCrypto call costs about 2-4 µs whatever the size
 * (a promise, copies, a fresh context) and TextEncoder about 1 µs, while a 64-byte block costs
 * about 0.4 µs here; a signature is about ten blocks. Hashing in pieces lets the
 * signer keep the state after what does not change (an HMAC key's pad blocks, a URL's part of the
 * canonical request) and never build the strings it hashes. Checked against WebCrypto in
 * sha256.test.ts.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const IV = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
/** Character codes of the hex digits, by nibble. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const encoder = new TextEncoder();

// Scratch space, reused: every function here runs to completion synchronously, so calls never interleave.
const HEX_CODES: number[] = new Array(64).fill(0);

function compress(state: Int32Array, block: Uint8Array, at: number): void {
  // Unrolled by 16 with the message schedule in locals and the working variables renamed each round
  // instead of shifted: inside workerd this runs about 1.6 times as fast as the plain loops.
  let w0 = (block[at + 0]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!;
  let w1 = (block[at + 4]! << 24) | (block[at + 5]! << 16) | (block[at + 6]! << 8) | block[at + 7]!;
  let w2 = (block[at + 8]! << 24) | (block[at + 9]! << 16) | (block[at + 10]! << 8) | block[at + 11]!;
  let w3 = (block[at + 12]! << 24) | (block[at + 13]! << 16) | (block[at + 14]! << 8) | block[at + 15]!;
  let w4 = (block[at + 16]! << 24) | (block[at + 17]! << 16) | (block[at + 18]! << 8) | block[at + 19]!;
  let w5 = (block[at + 20]! << 24) | (block[at + 21]! << 16) | (block[at + 22]! << 8) | block[at + 23]!;
  let w6 = (block[at + 24]! << 24) | (block[at + 25]! << 16) | (block[at + 26]! << 8) | block[at + 27]!;
  let w7 = (block[at + 28]! << 24) | (block[at + 29]! << 16) | (block[at + 30]! << 8) | block[at + 31]!;
  let w8 = (block[at + 32]! << 24) | (block[at + 33]! << 16) | (block[at + 34]! << 8) | block[at + 35]!;
  let w9 = (block[at + 36]! << 24) | (block[at + 37]! << 16) | (block[at + 38]! << 8) | block[at + 39]!;
  let w10 = (block[at + 40]! << 24) | (block[at + 41]! << 16) | (block[at + 42]! << 8) | block[at + 43]!;
  let w11 = (block[at + 44]! << 24) | (block[at + 45]! << 16) | (block[at + 46]! << 8) | block[at + 47]!;
  let w12 = (block[at + 48]! << 24) | (block[at + 49]! << 16) | (block[at + 50]! << 8) | block[at + 51]!;
  let w13 = (block[at + 52]! << 24) | (block[at + 53]! << 16) | (block[at + 54]! << 8) | block[at + 55]!;
  let w14 = (block[at + 56]! << 24) | (block[at + 57]! << 16) | (block[at + 58]! << 8) | block[at + 59]!;
  let w15 = (block[at + 60]! << 24) | (block[at + 61]! << 16) | (block[at + 62]! << 8) | block[at + 63]!;
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let r = 0; r < 64; r += 16) {
    if (r > 0) {
      w0 = (w0 + (((w1 >>> 7) | (w1 << 25)) ^ ((w1 >>> 18) | (w1 << 14)) ^ (w1 >>> 3)) + w9 + (((w14 >>> 17) | (w14 << 15)) ^ ((w14 >>> 19) | (w14 << 13)) ^ (w14 >>> 10))) | 0;
      w1 = (w1 + (((w2 >>> 7) | (w2 << 25)) ^ ((w2 >>> 18) | (w2 << 14)) ^ (w2 >>> 3)) + w10 + (((w15 >>> 17) | (w15 << 15)) ^ ((w15 >>> 19) | (w15 << 13)) ^ (w15 >>> 10))) | 0;
      w2 = (w2 + (((w3 >>> 7) | (w3 << 25)) ^ ((w3 >>> 18) | (w3 << 14)) ^ (w3 >>> 3)) + w11 + (((w0 >>> 17) | (w0 << 15)) ^ ((w0 >>> 19) | (w0 << 13)) ^ (w0 >>> 10))) | 0;
      w3 = (w3 + (((w4 >>> 7) | (w4 << 25)) ^ ((w4 >>> 18) | (w4 << 14)) ^ (w4 >>> 3)) + w12 + (((w1 >>> 17) | (w1 << 15)) ^ ((w1 >>> 19) | (w1 << 13)) ^ (w1 >>> 10))) | 0;
      w4 = (w4 + (((w5 >>> 7) | (w5 << 25)) ^ ((w5 >>> 18) | (w5 << 14)) ^ (w5 >>> 3)) + w13 + (((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10))) | 0;
      w5 = (w5 + (((w6 >>> 7) | (w6 << 25)) ^ ((w6 >>> 18) | (w6 << 14)) ^ (w6 >>> 3)) + w14 + (((w3 >>> 17) | (w3 << 15)) ^ ((w3 >>> 19) | (w3 << 13)) ^ (w3 >>> 10))) | 0;
      w6 = (w6 + (((w7 >>> 7) | (w7 << 25)) ^ ((w7 >>> 18) | (w7 << 14)) ^ (w7 >>> 3)) + w15 + (((w4 >>> 17) | (w4 << 15)) ^ ((w4 >>> 19) | (w4 << 13)) ^ (w4 >>> 10))) | 0;
      w7 = (w7 + (((w8 >>> 7) | (w8 << 25)) ^ ((w8 >>> 18) | (w8 << 14)) ^ (w8 >>> 3)) + w0 + (((w5 >>> 17) | (w5 << 15)) ^ ((w5 >>> 19) | (w5 << 13)) ^ (w5 >>> 10))) | 0;
      w8 = (w8 + (((w9 >>> 7) | (w9 << 25)) ^ ((w9 >>> 18) | (w9 << 14)) ^ (w9 >>> 3)) + w1 + (((w6 >>> 17) | (w6 << 15)) ^ ((w6 >>> 19) | (w6 << 13)) ^ (w6 >>> 10))) | 0;
      w9 = (w9 + (((w10 >>> 7) | (w10 << 25)) ^ ((w10 >>> 18) | (w10 << 14)) ^ (w10 >>> 3)) + w2 + (((w7 >>> 17) | (w7 << 15)) ^ ((w7 >>> 19) | (w7 << 13)) ^ (w7 >>> 10))) | 0;
      w10 = (w10 + (((w11 >>> 7) | (w11 << 25)) ^ ((w11 >>> 18) | (w11 << 14)) ^ (w11 >>> 3)) + w3 + (((w8 >>> 17) | (w8 << 15)) ^ ((w8 >>> 19) | (w8 << 13)) ^ (w8 >>> 10))) | 0;
      w11 = (w11 + (((w12 >>> 7) | (w12 << 25)) ^ ((w12 >>> 18) | (w12 << 14)) ^ (w12 >>> 3)) + w4 + (((w9 >>> 17) | (w9 << 15)) ^ ((w9 >>> 19) | (w9 << 13)) ^ (w9 >>> 10))) | 0;
      w12 = (w12 + (((w13 >>> 7) | (w13 << 25)) ^ ((w13 >>> 18) | (w13 << 14)) ^ (w13 >>> 3)) + w5 + (((w10 >>> 17) | (w10 << 15)) ^ ((w10 >>> 19) | (w10 << 13)) ^ (w10 >>> 10))) | 0;
      w13 = (w13 + (((w14 >>> 7) | (w14 << 25)) ^ ((w14 >>> 18) | (w14 << 14)) ^ (w14 >>> 3)) + w6 + (((w11 >>> 17) | (w11 << 15)) ^ ((w11 >>> 19) | (w11 << 13)) ^ (w11 >>> 10))) | 0;
      w14 = (w14 + (((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3)) + w7 + (((w12 >>> 17) | (w12 << 15)) ^ ((w12 >>> 19) | (w12 << 13)) ^ (w12 >>> 10))) | 0;
      w15 = (w15 + (((w0 >>> 7) | (w0 << 25)) ^ ((w0 >>> 18) | (w0 << 14)) ^ (w0 >>> 3)) + w8 + (((w13 >>> 17) | (w13 << 15)) ^ ((w13 >>> 19) | (w13 << 13)) ^ (w13 >>> 10))) | 0;
    }
    h = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[r]! + w0) | 0;
    d = (d + h) | 0;
    h = (h + (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + K[r + 1]! + w1) | 0;
    c = (c + g) | 0;
    g = (g + (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a)))) | 0;
    f = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + K[r + 2]! + w2) | 0;
    b = (b + f) | 0;
    f = (f + (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h)))) | 0;
    e = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + K[r + 3]! + w3) | 0;
    a = (a + e) | 0;
    e = (e + (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g)))) | 0;
    d = (d + (((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) + (c ^ (a & (b ^ c))) + K[r + 4]! + w4) | 0;
    h = (h + d) | 0;
    d = (d + (((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) + ((e & f) | (g & (e | f)))) | 0;
    c = (c + (((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) + (b ^ (h & (a ^ b))) + K[r + 5]! + w5) | 0;
    g = (g + c) | 0;
    c = (c + (((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) + ((d & e) | (f & (d | e)))) | 0;
    b = (b + (((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) + (a ^ (g & (h ^ a))) + K[r + 6]! + w6) | 0;
    f = (f + b) | 0;
    b = (b + (((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) + ((c & d) | (e & (c | d)))) | 0;
    a = (a + (((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) + (h ^ (f & (g ^ h))) + K[r + 7]! + w7) | 0;
    e = (e + a) | 0;
    a = (a + (((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) + ((b & c) | (d & (b | c)))) | 0;
    h = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + (g ^ (e & (f ^ g))) + K[r + 8]! + w8) | 0;
    d = (d + h) | 0;
    h = (h + (((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) | (c & (a | b)))) | 0;
    g = (g + (((d >>> 6) | (d << 26)) ^ ((d >>> 11) | (d << 21)) ^ ((d >>> 25) | (d << 7))) + (f ^ (d & (e ^ f))) + K[r + 9]! + w9) | 0;
    c = (c + g) | 0;
    g = (g + (((h >>> 2) | (h << 30)) ^ ((h >>> 13) | (h << 19)) ^ ((h >>> 22) | (h << 10))) + ((h & a) | (b & (h | a)))) | 0;
    f = (f + (((c >>> 6) | (c << 26)) ^ ((c >>> 11) | (c << 21)) ^ ((c >>> 25) | (c << 7))) + (e ^ (c & (d ^ e))) + K[r + 10]! + w10) | 0;
    b = (b + f) | 0;
    f = (f + (((g >>> 2) | (g << 30)) ^ ((g >>> 13) | (g << 19)) ^ ((g >>> 22) | (g << 10))) + ((g & h) | (a & (g | h)))) | 0;
    e = (e + (((b >>> 6) | (b << 26)) ^ ((b >>> 11) | (b << 21)) ^ ((b >>> 25) | (b << 7))) + (d ^ (b & (c ^ d))) + K[r + 11]! + w11) | 0;
    a = (a + e) | 0;
    e = (e + (((f >>> 2) | (f << 30)) ^ ((f >>> 13) | (f << 19)) ^ ((f >>> 22) | (f << 10))) + ((f & g) | (h & (f | g)))) | 0;
    d = (d + (((a >>> 6) | (a << 26)) ^ ((a >>> 11) | (a << 21)) ^ ((a >>> 25) | (a << 7))) + (c ^ (a & (b ^ c))) + K[r + 12]! + w12) | 0;
    h = (h + d) | 0;
    d = (d + (((e >>> 2) | (e << 30)) ^ ((e >>> 13) | (e << 19)) ^ ((e >>> 22) | (e << 10))) + ((e & f) | (g & (e | f)))) | 0;
    c = (c + (((h >>> 6) | (h << 26)) ^ ((h >>> 11) | (h << 21)) ^ ((h >>> 25) | (h << 7))) + (b ^ (h & (a ^ b))) + K[r + 13]! + w13) | 0;
    g = (g + c) | 0;
    c = (c + (((d >>> 2) | (d << 30)) ^ ((d >>> 13) | (d << 19)) ^ ((d >>> 22) | (d << 10))) + ((d & e) | (f & (d | e)))) | 0;
    b = (b + (((g >>> 6) | (g << 26)) ^ ((g >>> 11) | (g << 21)) ^ ((g >>> 25) | (g << 7))) + (a ^ (g & (h ^ a))) + K[r + 14]! + w14) | 0;
    f = (f + b) | 0;
    b = (b + (((c >>> 2) | (c << 30)) ^ ((c >>> 13) | (c << 19)) ^ ((c >>> 22) | (c << 10))) + ((c & d) | (e & (c | d)))) | 0;
    a = (a + (((f >>> 6) | (f << 26)) ^ ((f >>> 11) | (f << 21)) ^ ((f >>> 25) | (f << 7))) + (h ^ (f & (g ^ h))) + K[r + 15]! + w15) | 0;
    e = (e + a) | 0;
    a = (a + (((b >>> 2) | (b << 30)) ^ ((b >>> 13) | (b << 19)) ^ ((b >>> 22) | (b << 10))) + ((b & c) | (d & (b | c)))) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** A SHA-256 in progress: the state after the whole blocks so far, and the bytes of the next one. */
export class Sha256 {
  readonly #state = Int32Array.from(IV);
  readonly #block = new Uint8Array(64);
  /** Bytes in `#block`. */
  #filled = 0;
  /** Bytes hashed in all (a JS number: exact far beyond any length hashed here). */
  #length = 0;

  /** Starts again from nothing, or from where `from` is. */
  reset(from?: Sha256): this {
    if (from) {
      this.#state.set(from.#state);
      this.#block.set(from.#block);
      this.#filled = from.#filled;
      this.#length = from.#length;
    } else {
      this.#state.set(IV);
      this.#filled = 0;
      this.#length = 0;
    }
    return this;
  }

  /** Appends `data`; a string as UTF-8 (ASCII is copied directly, which is faster than TextEncoder). */
  update(data: string | Uint8Array): this {
    if (typeof data !== 'string') return this.#bytes(data);
    const block = this.#block;
    let filled = this.#filled;
    for (let i = 0; i < data.length; i++) {
      const c = data.charCodeAt(i);
      if (c > 0x7f) {
        // Only ASCII before `i`: `i` starts a code point, so the UTF-8 of the rest follows on.
        this.#filled = filled;
        this.#length += i;
        return this.#bytes(encoder.encode(data.slice(i)));
      }
      block[filled++] = c;
      if (filled === 64) {
        compress(this.#state, block, 0);
        filled = 0;
      }
    }
    this.#filled = filled;
    this.#length += data.length;
    return this;
  }

  #bytes(data: Uint8Array): this {
    let at = 0;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, data.length);
      for (let i = 0; i < take; i++) this.#block[this.#filled + i] = data[i]!;
      this.#filled += take;
      at = take;
      if (this.#filled < 64) {
        this.#length += take;
        return this;
      }
      compress(this.#state, this.#block, 0);
      this.#filled = 0;
    }
    for (; at + 64 <= data.length; at += 64) compress(this.#state, data, at);
    for (let i = at; i < data.length; i++) this.#block[this.#filled++] = data[i]!;
    this.#length += data.length;
    return this;
  }

  /** Finishes the hash into the state (the 0x80 marker, zeros, the length in bits); reset before reusing. */
  #finish(): Int32Array {
    const block = this.#block;
    const filled = this.#filled;
    block[filled] = 0x80;
    if (filled >= 56) {
      block.fill(0, filled + 1);
      compress(this.#state, block, 0);
      block.fill(0, 0, 56);
    } else block.fill(0, filled + 1, 56);
    const high = Math.floor(this.#length / 0x20000000);
    const low = (this.#length << 3) >>> 0;
    block[56] = high >>> 24;
    block[57] = high >>> 16;
    block[58] = high >>> 8;
    block[59] = high;
    block[60] = low >>> 24;
    block[61] = low >>> 16;
    block[62] = low >>> 8;
    block[63] = low;
    compress(this.#state, block, 0);
    return this.#state;
  }

  /** The digest as lowercase hex, built as one flat string (concatenating 32 pieces costs more). */
  hex(): string {
    const state = this.#finish();
    for (let i = 0; i < 8; i++) {
      const w = state[i]!;
      for (let j = 0; j < 8; j++) HEX_CODES[i * 8 + j] = DIGITS[(w >>> (28 - j * 4)) & 0xf]!;
    }
    return String.fromCharCode.apply(null, HEX_CODES);
  }

  /** The digest's 32 bytes, written into `out`. */
  digestInto(out: Uint8Array): Uint8Array {
    const state = this.#finish();
    for (let i = 0; i < 8; i++) {
      const w = state[i]!;
      out[i * 4] = w >>> 24;
      out[i * 4 + 1] = w >>> 16;
      out[i * 4 + 2] = w >>> 8;
      out[i * 4 + 3] = w;
    }
    return out;
  }
}

/** The SHA-256 of `data` (a string as UTF-8), as lowercase hex. */
export const sha256Hex = (data: string | Uint8Array): string => new Sha256().update(data).hex();

/** An HMAC-SHA256 key, kept as the hash states after its inner and outer pad blocks. */
export interface HmacKey {
  readonly inner: Sha256;
  readonly outer: Sha256;
}

export function hmacKey(key: Uint8Array): HmacKey {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? new Sha256().update(key).digestInto(new Uint8Array(32)) : key);
  return { inner: new Sha256().update(block.map((b) => b ^ 0x36)), outer: new Sha256().update(block.map((b) => b ^ 0x5c)) };
}

const INNER = new Uint8Array(32);

/**
 * HMAC-SHA256 under `key` of the concatenation of `parts` (strings as UTF-8), as lowercase hex;
 * `work` is a hasher to reuse.
 */
export function hmacSha256Hex(key: HmacKey, parts: readonly (string | Uint8Array)[], work = new Sha256()): string {
  work.reset(key.inner);
  for (const part of parts) work.update(part);
  work.digestInto(INNER);
  return work.reset(key.outer).update(INNER).hex();
}
