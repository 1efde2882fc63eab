import { describe, expect, it } from 'vitest';
import { bytesUpTo, hex, randomHex, sameSecret, sha256Hex } from './bytes';

describe('bytes', () => {
  it('writes lower-case hex of every byte value', () => {
    expect(hex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe('00010f10abff');
    expect(hex(new Uint8Array([222, 173]).buffer)).toBe('dead');
  });

  it('makes random hex of the asked length', () => {
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
    expect(randomHex(8)).not.toBe(randomHex(8));
  });

  it('hashes with SHA-256 (the empty string and "abc" test vectors)', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compares secrets: equal only when every character is', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});

describe('bytesUpTo', () => {
  const streamOf = (...chunks: number[][]) => {
    let pulls = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[pulls++];
        if (chunk) controller.enqueue(new Uint8Array(chunk));
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    });
    return { stream, pulls: () => pulls, cancelled: () => cancelled };
  };

  it('joins the chunks of a stream within the limit; an absent body is empty', async () => {
    expect([...(await bytesUpTo(streamOf([1, 2], [3], [4, 5]).stream, 5))!]).toEqual([1, 2, 3, 4, 5]);
    expect(await bytesUpTo(null, 5)).toEqual(new Uint8Array(0));
  });

  it('stops at the first byte over the limit, cancels the stream and reads no further', async () => {
    const s = streamOf([1, 2], [3, 4], [5], [6]);
    expect(await bytesUpTo(s.stream, 3)).toBeNull();
    expect(s.cancelled()).toBe(true);
    expect(s.pulls()).toBeLessThanOrEqual(3);
  });
});
