import { describe, expect, it } from 'vitest';
import { RANGE_MAX, serveBytes } from './files';

const BYTES = Uint8Array.from({ length: 1000 }, (_, i) => i % 256);
const get = (range?: string) => serveBytes(new Request('https://sandbox.test/x.bin', range === undefined ? {} : { headers: { Range: range } }), BYTES, 'application/octet-stream');

describe('serveBytes', () => {
  it('serves a range, a suffix, and the whole body without Range', async () => {
    const part = get('bytes=10-19');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(BYTES.slice(10, 20));
    expect(new Uint8Array(await get('bytes=-5').arrayBuffer())).toEqual(BYTES.slice(-5));
    expect(get().status).toBe(200);
    expect(get('bytes=5-1').status).toBe(416);
  });

  it(`ignores a Range header longer than ${RANGE_MAX} characters (the whole body, as for any unreadable Range)`, async () => {
    const long = get(`bytes=${'0'.repeat(1024 * 1024)}-9`);
    expect(long.status).toBe(200);
    expect(long.headers.get('content-length')).toBe('1000');
    const padded = `bytes=${'0'.repeat(RANGE_MAX - 'bytes=-9'.length)}-9`;
    expect(padded.length).toBe(RANGE_MAX);
    expect(get(padded).headers.get('content-range')).toBe('bytes 0-9/1000');
  });
});
