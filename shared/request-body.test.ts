import { describe, expect, it } from 'vitest';
import { clip, decodeUtf8, JSON_DEPTH_MAX, nestsDeeperThan, parseJsonBody, parseJsonBytes, sentence, tooLargeMessage } from './request-body';

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, including characters outside the BMP', () => {
    expect(decodeUtf8(new TextEncoder().encode('{"Name":"猫 🐈"}'))).toBe('{"Name":"猫 🐈"}');
  });

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a truncated sequence', [0x22, 0xe7, 0x8c, 0x22]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
  ])('refuses %s instead of storing U+FFFD', (_label, bytes) => {
    expect(decodeUtf8(new Uint8Array(bytes))).toBeNull();
    expect(parseJsonBytes(new Uint8Array(bytes))).toEqual({ ok: false, message: 'body: is not valid UTF-8 text' });
  });
});

describe('nestsDeeperThan', () => {
  const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it(`accepts ${JSON_DEPTH_MAX} levels and refuses one more`, () => {
    expect(nestsDeeperThan(nested(JSON_DEPTH_MAX), JSON_DEPTH_MAX)).toBe(false);
    expect(nestsDeeperThan(nested(JSON_DEPTH_MAX + 1), JSON_DEPTH_MAX)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{\\"[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"","b":[[[]]]}', 3)).toBe(true);
  });

  it('answers a million levels without recursion (JSON.parse plus a recursive walk would overflow the stack)', () => {
    expect(parseJsonBody(nested(1_000_000))).toEqual({ ok: false, message: `body: is nested deeper than ${JSON_DEPTH_MAX} levels` });
    expect(parseJsonBody(`{"a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`).ok).toBe(false);
  });
});

describe('parseJsonBody', () => {
  it('parses JSON and names the body when it is not JSON', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] } });
    expect(parseJsonBody('{')).toEqual({ ok: false, message: 'body: is not valid JSON' });
  });
});

describe('messages', () => {
  it('clips what a caller sent to 64 characters and says how long it was', () => {
    expect(clip('Nope')).toBe('Nope');
    expect(clip('x'.repeat(65_536))).toBe(`${'x'.repeat(64)}… (65536 characters)`);
  });

  it('ends a sentence with one full stop', () => {
    expect(sentence('Internal error.')).toBe('Internal error.');
    expect(sentence('Internal error')).toBe('Internal error.');
  });

  it('states a body limit in megabytes and bytes', () => {
    expect(tooLargeMessage(1024 * 1024)).toBe('body: must be at most 1 MB (1048576 bytes); send large media by URL');
  });
});

describe('unpaired surrogates', () => {
  it.each([
    ['{"Name":"\\ud800"}', 'Name'],
    ['{"Filter":{"GroupIds":["a","\\udc00x"]}}', 'Filter.GroupIds[1]'],
    ['{"\\ud83d":1}', '\ud83d'],
    ['"\\ud83d\\ude00\\ud83d"', 'body'],
  ])('refuses %s naming %s', (text, field) => {
    const parsed = parseJsonBody(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toBe(`${field}: must be valid Unicode text (it holds an unpaired surrogate escape such as \\ud800)`);
  });

  it('accepts paired surrogates, escaped or not', () => {
    expect(parseJsonBody('{"Name":"\\ud83d\\ude00 😀"}')).toEqual({ ok: true, value: { Name: '😀 😀' } });
  });
});
