import * as v from 'valibot';
import { clip, ECHO_MAX } from './request-body';

/** A rejected input: the field it concerns (dotted path, `[i]` for list items) and why. */
export interface FieldProblem {
  field: string;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: FieldProblem };

/** Formats a valibot issue path as `Filter.GroupIds[0]` or `content[2].image_url.url`. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = item.key;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/**
 * Runs a schema and reports the first problem with the field it names, so that every
 * caller (proxy, sandbox, extension) answers bad input with the same wording.
 */
export function check<S extends v.GenericSchema>(schema: S, input: unknown, root = 'body'): Checked<v.InferOutput<S>> {
  // valibot's object schemas take arrays as objects; a JSON array is never a valid request body.
  if (Array.isArray(input) && schema.type.endsWith('object')) {
    return { ok: false, problem: { field: root, message: `${root}: must be a JSON object` } };
  }
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  // Clipped: an unknown key is the caller's text and may be megabytes long.
  const field = clip(issuePath(issue) || root);
  // valibot's own messages (a schema without one of ours) repeat the value received whole: clipped too.
  const message = issue.received.length > ECHO_MAX && issue.message.includes(issue.received) ? issue.message.replace(issue.received, clip(issue.received)) : issue.message;
  return { ok: false, problem: { field, message: `${field}: ${message}` } };
}

/**
 * The message of a strict object schema: valibot reports an unknown key, a missing required key and
 * a non-object input through the same schema message, so tell them apart by the issue.
 */
export const strictObjectMessage =
  (unknownKey: string) =>
  (issue: v.StrictObjectIssue): string => {
    if (issue.expected === 'never') return unknownKey;
    if (issue.path?.length) return 'is required';
    return 'must be a JSON object';
  };

/** Keys a record never takes: valibot's `v.record` drops them silently, so a body would mean less than it says. */
export const RESERVED_RECORD_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

type RecordKey = v.BaseSchema<string, string | number | symbol, v.BaseIssue<unknown>>;

const isPlainObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input);

/** The first reserved key an object has, as a valibot issue naming it. */
const reservedKeyCheck = v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
  if (!dataset.typed) return;
  const input = dataset.value;
  const reserved = RESERVED_RECORD_KEYS.find((key) => Object.hasOwn(input, key));
  if (reserved) addIssue({ message: 'is a reserved name and cannot be a key', path: [{ type: 'object', origin: 'key', input, key: reserved, value: input[reserved] }] });
});

/**
 * `v.record` for every record of a request or answer: a JSON object only (valibot's takes an array
 * as one, its indexes as keys), and `__proto__`, `constructor` or `prototype` as a key is an issue
 * naming it (valibot's drops them without a word). `message` is for a value that is no object.
 * Still a `record` schema to everything that reads one (the OpenAPI document): only its run is guarded.
 */
export function recordOf<const K extends RecordKey, const V extends v.GenericSchema>(key: K, value: V, message = 'must be a JSON object') {
  const record = v.record(key, value, message);
  const guard = v.pipe(v.custom<Record<string, unknown>>(isPlainObject, message), reservedKeyCheck);
  const guarded: typeof record = {
    ...record,
    '~run'(dataset, config) {
      const checked = guard['~run'](dataset as v.UnknownDataset, config);
      if (checked.issues) return checked as unknown as ReturnType<typeof record['~run']>;
      return record['~run'](dataset, config);
    },
    get '~standard'() {
      return { ...record['~standard'], validate: (input: unknown) => { const r = v.safeParse(guarded, input); return r.success ? { value: r.output } : { issues: r.issues }; } } as unknown as typeof record['~standard'];
    },
  };
  return guarded;
}
