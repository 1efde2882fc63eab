import fc from 'fast-check';
import { decodeUtf8 } from '../../../shared';
import type { FuzzField } from './fields';

/**
 * Hostile request bodies and request parts for fuzz tests of the proxy and the sandbox. Each body
 * is the exact bytes to send plus a short description for reports (a 3 MB case is never printed
 * whole). Large and deep cases are rare and small ones common, so that many cases run quickly
 * while the limits are still crossed every few dozen cases.
 */

/** A request body: the exact bytes, what kind of case it is, and a short description. */
export interface FuzzBody {
  /** `json`, `fields`, `numbers`, `proto`, `dupes`, `utf8`, `surrogates`, `deep`, `huge`, `bytes` or `blank`. */
  kind: string;
  bytes: Uint8Array<ArrayBuffer>;
  /** The body as text when it is valid UTF-8 (handy for assertions), else null. */
  text: string | null;
  [fc.toStringMethod](): string;
}

const encoder = new TextEncoder();

const describe = (kind: string, bytes: Uint8Array, text: string | null): string => {
  const preview = text === null ? `${[...bytes.subarray(0, 48)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}` : JSON.stringify(text.slice(0, 120));
  return `${kind} body, ${bytes.byteLength} bytes: ${preview}${(text?.length ?? bytes.byteLength) > 120 ? '…' : ''}`;
};

/** A body of `kind` from text (sent as UTF-8) or from raw bytes. */
export function fuzzBody(kind: string, content: string | Uint8Array): FuzzBody {
  const bytes = (typeof content === 'string' ? encoder.encode(content) : new Uint8Array(content)) as Uint8Array<ArrayBuffer>;
  const text = typeof content === 'string' ? content : decodeUtf8(bytes);
  const label = describe(kind, bytes, text);
  return { kind, bytes, text, [fc.toStringMethod]: () => label };
}

export interface BodyOptions {
  /** The fields of the route's schema (see `LIBRARY_FIELDS`, `VIDEO_CREATE_FIELDS`, `schemaFields`). */
  fields?: readonly FuzzField[];
  /** Largest huge string, in bytes (default 3 MB: over the 1 MB JSON limit, under the 16 MB one). */
  maxBytes?: number;
  /** Deepest nesting (default 100,000 levels). */
  maxDepth?: number;
}

const DEFAULT_FIELDS: readonly FuzzField[] = [{ path: 'Name', type: 'string' }, { path: 'Id', type: 'string' }];
const fieldsOf = (options: BodyOptions) => (options.fields?.length ? options.fields : DEFAULT_FIELDS);

/** A path's keys: `Filter.GroupIds[]` -> `['Filter', 'GroupIds', 0]` (lists become one-item lists). */
const keysOf = (path: string): (string | 0)[] =>
  path.split('.').flatMap((part) => {
    const name = part.replace(/\[\]/g, '');
    const lists = (part.match(/\[\]/g) ?? []).length;
    return [...(name ? [name] : []), ...Array<0>(lists).fill(0)];
  });

/** Puts a raw JSON `valueText` at `path`: `Filter.GroupIds[]` -> `{"Filter":{"GroupIds":[<value>]}}`. */
export function atPath(path: string, valueText: string): string {
  let out = valueText;
  for (const key of keysOf(path).reverse()) out = key === 0 ? `[${out}]` : `{${JSON.stringify(key)}:${out}}`;
  return out;
}

/** A field's path (top-level fields most often). */
const fieldArb = (options: BodyOptions): fc.Arbitrary<FuzzField> => fc.constantFrom(...fieldsOf(options));

/** JSON texts of numbers at and past the edges, and number-like texts JSON does not allow. */
export const EDGE_NUMBERS = [
  '1e308', '1.7976931348623157e308', '1e309', '-1e309', '-0', '0', '-0.0', '5e-324', '1e-400', '9007199254740993', '-9007199254740993',
  '9007199254740992', '1e21', '123456789012345678901234567890', '0.1', '1.5', '2147483648', '-2147483649', '4294967296', '1E+2', '1e-0',
  // Not JSON: each must be refused as malformed, never read as a number.
  'NaN', '-NaN', 'Infinity', '-Infinity', '+1', '01', '00', '.5', '1.', '1e', '1e+', '-', '0x10', '0b1', '1_000', '١', '1,5',
] as const;

/** Well-formed values of every JSON type, for a field that expects another. */
const WRONG_TYPES = [
  'null', 'true', 'false', '0', '-1', '1.5', '1e308', '-0', '""', '" "', '"0"', '"true"', '"null"', '[]', '[null]', '[[]]', '{}', '{"":""}',
  '["a","b"]', '[1,2,3]', '{"0":1}', '"\\u0000"', '"\\n"', '"x"',
] as const;

const jsonText = (value: unknown) => JSON.stringify(value);

/** Any JSON value (fast-check's), as text. */
export const jsonValueBody = (): fc.Arbitrary<FuzzBody> =>
  fc.jsonValue({ maxDepth: 5 }).map((value) => fuzzBody('json', JSON.stringify(value) ?? 'null'));

/** A value for a field: another JSON type, a near miss of an allowed value, an edge number, or a long string. */
const hostileValue = (field: FuzzField): fc.Arbitrary<string> => {
  const options: fc.Arbitrary<string>[] = [
    fc.constantFrom(...WRONG_TYPES),
    fc.constantFrom(...EDGE_NUMBERS),
    fc.string({ maxLength: 40, unit: 'binary' }).map(jsonText),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.integer({ min: 0, max: 70_000 }).map((n) => jsonText('x'.repeat(n))),
  ];
  if (field.values?.length) {
    const values = field.values.map(String);
    options.push(fc.constantFrom(...values).map((v) => jsonText(v.toLowerCase())), fc.constantFrom(...values).map((v) => jsonText(` ${v}`)));
    options.push(fc.constantFrom(...field.values).map(jsonText));
  }
  if (field.type === 'string') options.push(fc.constantFrom('"https://user:pw@example.com/a.png"', '"asset://"', '"data:image/svg+xml;base64,PHN2Zz4="', '"http://127.0.0.1/"', '"file:///etc/passwd"'));
  return fc.oneof(...options);
};

/** Objects that set one to three real fields of the schema to values of the wrong type or out of range. */
export const wrongTypeBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .array(fieldArb(options).chain((field) => hostileValue(field).map((value) => [field.path, value] as const)), { minLength: 1, maxLength: 3 })
    .map((pairs) => {
      // Each path as `"Key":<value>` (nested paths as nested objects), side by side in one object.
      const members = pairs.map(([path, value]) => atPath(path, value).slice(1, -1));
      return fuzzBody('fields', `{${members.join(',')}}`);
    });

/** Edge and non-JSON numbers in real fields, as raw text. */
export const edgeNumberBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .tuple(fieldArb(options), fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.integer({ min: 1, max: 100_000 }).map((n) => '9'.repeat(n))))
    .map(([field, number]) => fuzzBody('numbers', atPath(field.path, number)));

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'toJSON'] as const;

/** Keys that matter to JavaScript objects, at the top and inside real fields. */
export const prototypeKeyBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom('{"polluted":true}', '{"prototype":{"polluted":true}}', 'null', '1', '"x"', '[]'), fc.option(fieldArb(options)), fc.boolean())
    .map(([key, value, field, nest]) => {
      const member = `${JSON.stringify(key)}:${value}`;
      if (field && nest) return fuzzBody('proto', atPath(field.path, `{${member}}`));
      return fuzzBody('proto', field ? `{${atPath(field.path, '"x"').slice(1, -1)},${member}}` : `{${member}}`);
    });

/** The same key twice in raw text (`JSON.parse` keeps the last; a check must read what runs). */
export const duplicateKeyBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .tuple(fieldArb(options), hostileValue({ path: '', type: 'unknown' }), hostileValue({ path: '', type: 'unknown' }))
    .map(([field, first, second]) => {
      const [key] = keysOf(field.path);
      const name = JSON.stringify(typeof key === 'string' ? key : 'Name');
      return fuzzBody('dupes', `{${name}:${first},${name}:${second}}`);
    });

/** Byte sequences that are not UTF-8: stray continuations, overlongs, surrogates, past U+10FFFF, cut sequences. */
export const INVALID_UTF8: readonly (readonly number[])[] = [
  [0x80], [0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80],
  [0xf5, 0x80, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xfe], [0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3, 0x28], [0xe2, 0x28, 0xa1],
];

/** Invalid UTF-8 inside a string of a real field (where U+FFFD would be stored silently), or anywhere. */
export const invalidUtf8Body = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .tuple(fieldArb(options), fc.constantFrom(...INVALID_UTF8), fc.string({ maxLength: 8 }), fc.constantFrom('field', 'key', 'outside', 'bom'))
    .map(([field, bad, around, where]) => {
      const [before, after] =
        where === 'field'
          ? atPath(field.path, `"${around}\u0000SPLIT\u0000"`).split('\u0000SPLIT\u0000')
          : where === 'key'
            ? [`{"${around}`, `":1}`]
            : where === 'bom'
              ? ['', '{}']
              : ['{"Name":"x"}', ''];
      return fuzzBody('utf8', new Uint8Array([...encoder.encode(before), ...bad, ...encoder.encode(after)]));
    });

const SURROGATES = ['\\ud800', '\\udfff', '\\udc00\\ud800', '\\ud83d', 'a\\ud800b', '\\ud83d\\ude00\\ud83d'] as const;

/** Unpaired UTF-16 surrogate escapes (valid JSON text, but not storable as UTF-8 without change). */
export const surrogateBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc
    .tuple(fieldArb(options), fc.constantFrom(...SURROGATES), fc.boolean())
    .map(([field, escape, asKey]) => fuzzBody('surrogates', asKey ? `{"${escape}":1}` : atPath(field.path, `"${escape}"`)));

/** Nesting from a few levels to `maxDepth`: arrays, objects, unclosed, and brackets inside strings. */
export const deepBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> => {
  const maxDepth = options.maxDepth ?? 100_000;
  const depth = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 28, max: 36 }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 64 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: maxDepth }) },
  );
  return fc
    .tuple(depth, fc.constantFrom('arrays', 'objects', 'mixed', 'unclosed', 'in-string', 'in-field'), fieldArb(options))
    .map(([d, shape, field]) => {
      switch (shape) {
        case 'arrays':
          return fuzzBody('deep', '['.repeat(d) + ']'.repeat(d));
        case 'objects':
          return fuzzBody('deep', '{"a":'.repeat(d) + '1' + '}'.repeat(d));
        case 'mixed':
          return fuzzBody('deep', '[{"a":'.repeat(d) + '1' + '}]'.repeat(d));
        case 'unclosed':
          return fuzzBody('deep', '['.repeat(d));
        case 'in-string':
          return fuzzBody('deep', `{"Name":"${'['.repeat(d)}"}`);
        default:
          return fuzzBody('deep', atPath(field.path, '['.repeat(d) + ']'.repeat(d)));
      }
    });
};

const UNITS = ['a', ' ', 'é', '€', '😀', '\\n', '\\"', '\\u0000', '\\ud83d\\ude00', '<script>', '../', '%00'] as const;

/** A long string in a real field: mostly up to 64 KB, sometimes up to `maxBytes`. */
export const hugeStringBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> => {
  const maxBytes = options.maxBytes ?? 3 * 1024 * 1024;
  const size = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 65_536 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: maxBytes }) });
  return fc.tuple(fieldArb(options), fc.constantFrom(...UNITS), size, fc.boolean()).map(([field, unit, bytes, asKey]) => {
    const long = unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
    return fuzzBody('huge', asKey ? `{"${long}":1}` : atPath(field.path, `"${long}"`));
  });
};

/** Random bytes, and random text made of JSON's own characters. */
export const rawBytesBody = (): fc.Arbitrary<FuzzBody> =>
  fc.oneof(
    fc.uint8Array({ maxLength: 2048 }).map((bytes) => fuzzBody('bytes', bytes)),
    fc.string({ maxLength: 200, unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', ' ', 'a', '1', 'e', '-', '.', 'n', 'u', 'l', 't') }).map((text) => fuzzBody('bytes', text)),
  );

/** Empty and nearly empty bodies, and JSON that is not an object. */
export const blankBody = (): fc.Arbitrary<FuzzBody> =>
  fc
    .constantFrom('', ' ', '\n', '\t\r\n ', '\uFEFF{}', '\u0000', 'null', 'true', '0', '""', '[]', '{}', '{', '}', '{}{}', '{} x', '{"a":1,}', "{'a':1}", '{a:1}', '{"a":1}\u0000')
    .map((text) => fuzzBody('blank', text));

/** Every kind of hostile body, weighted so that most cases are small and fast. */
export const hostileBody = (options: BodyOptions = {}): fc.Arbitrary<FuzzBody> =>
  fc.oneof(
    { weight: 4, arbitrary: wrongTypeBody(options) },
    { weight: 3, arbitrary: jsonValueBody() },
    { weight: 2, arbitrary: edgeNumberBody(options) },
    { weight: 2, arbitrary: prototypeKeyBody(options) },
    { weight: 2, arbitrary: duplicateKeyBody(options) },
    { weight: 2, arbitrary: invalidUtf8Body(options) },
    { weight: 1, arbitrary: surrogateBody(options) },
    { weight: 2, arbitrary: rawBytesBody() },
    { weight: 1, arbitrary: blankBody() },
    { weight: 1, arbitrary: deepBody(options) },
    { weight: 1, arbitrary: hugeStringBody(options) },
  );

/** Header-safe text (printable ASCII and tab: what a Headers object accepts). */
const headerText = (maxLength: number) => fc.string({ maxLength, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

/** A string for a query parameter or a path segment: real names, wrong case, long, unicode, percent junk. */
export const hostileParam = (known: readonly string[] = []): fc.Arbitrary<string> =>
  fc.oneof(
    ...(known.length ? [fc.constantFrom(...known), fc.constantFrom(...known).map((k) => k.toLowerCase()), fc.constantFrom(...known).map((k) => `${k} `)] : []),
    fc.string({ maxLength: 40 }),
    fc.string({ maxLength: 20, unit: 'binary' }),
    fc.integer({ min: 0, max: 70_000 }).map((n) => 'A'.repeat(n)),
    fc.constantFrom('', ' ', '%', '%ZZ', '%FF', '%00', '%C0%80', '%ED%A0%80', '..', '../..', '\u0000', '😀', '\ud800', '<script>', 'constructor', '__proto__'),
  );

/**
 * A raw query string (after `?`), percent-encoding left as generated: repeated and missing
 * parameters, junk escapes, very long values. `names` are the parameters the route reads.
 */
export const hostileQuery = (names: readonly string[], known: Record<string, readonly string[]> = {}): fc.Arbitrary<string> => {
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...names), hostileParam()), fc.boolean()).chain(([name, raw]) =>
    hostileParam(Object.hasOwn(known, name) ? known[name]! : []).map((value) => `${raw ? name : encodeParam(name)}=${raw ? value.replace(/[#&\s]/g, '') : encodeParam(value)}`),
  );
  return fc.oneof(
    fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&')),
    fc.integer({ min: 1, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&')),
    fc.constantFrom('', '&&&', '=', '==', 'Action', 'Action=&Version=', '%%%', '?'),
  );
};

/**
 * `encodeURIComponent` that never throws: an unpaired surrogate (which it refuses) is sent as the
 * bytes ED A0 80, an escape of no valid UTF-8. For query values and path segments of fuzz cases.
 */
export const encodeParam = (value: string): string => {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^A-Za-z0-9%]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').slice(-2)}`);
  }
};

/** Headers a caller may send instead of the right ones: junk and near-miss credentials, long values. */
export const hostileHeaders = (names: readonly string[] = ['Authorization', 'X-Date', 'X-Content-Sha256', 'Content-Type']): fc.Arbitrary<Record<string, string>> => {
  const value = fc.oneof(
    headerText(60),
    fc.integer({ min: 0, max: 64 * 1024 }).map((n) => 'a'.repeat(n)),
    fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      'Bearer sk-',
      'Basic Zm9vOmJhcg==',
      'HMAC-SHA256',
      'HMAC-SHA256 Credential=AKSANDBOXDEV/20260101/cn-beijing/ark/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=' + '0'.repeat(64),
      'HMAC-SHA256 Credential=/, SignedHeaders=, Signature=',
      `HMAC-SHA256 Credential=${'A'.repeat(10_000)}/20260101/cn-beijing/ark/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${'f'.repeat(64)}`,
      '20260101T000000Z',
      '99999999T999999Z',
      '00000000T000000Z',
      '1970-01-01T00:00:00Z',
      'application/json; charset=utf-16',
      'text/plain',
      'multipart/form-data; boundary=x',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ),
  );
  return fc.dictionary(fc.constantFrom(...names), value, { maxKeys: names.length });
};

/**
 * A `Prefer` header (RFC 7240) as a caller may send it: the real preference in its valid forms
 * (any case, parameters, among others), near misses, separators alone, junk, and very long lists.
 */
export const hostilePrefer = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('respond-async', 'RESPOND-ASYNC', ' respond-async ', 'respond-async; wait=10', 'wait=5, respond-async', 'return=minimal,respond-async', 'respond-async=', 'respond-async="x"'),
    fc.constantFrom('respond_async', 'respond-asyn', 'respondasync', '"respond-async"', 'async', 'wait=10', 'handling=lenient', ',', ';', '=', ',,;;==', ';respond-async', '=respond-async', ''),
    headerText(80),
    fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.constantFrom('respond-async,', 'wait=1;', ',', ';x=', 'a')).map(([n, unit]) => unit.repeat(n)),
    fc.tuple(fc.array(fc.oneof(headerText(12), fc.constant('respond-async')), { maxLength: 8 }), fc.constantFrom(',', ';', ', ', '=')).map(([parts, separator]) => parts.join(separator)),
  );
