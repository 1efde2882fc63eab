import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { check, issuePath, recordOf, strictObjectMessage } from './validation';

const schema = v.strictObject(
  {
    Name: v.pipe(v.string('must be a string'), v.minLength(2, 'is too short')),
    Filter: v.optional(v.strictObject({ Ids: v.array(v.string('must be a string')) }, strictObjectMessage('unknown'))),
    Size: v.optional(v.number(), 20),
  },
  strictObjectMessage('is not a parameter of this operation'),
);

describe('check', () => {
  it('returns ok with the parsed value, defaults applied', () => {
    expect(check(schema, { Name: 'ab' })).toEqual({ ok: true, value: { Name: 'ab', Size: 20 } });
  });

  it('names the failing field and prefixes the message with it', () => {
    expect(check(schema, { Name: 'a' })).toEqual({ ok: false, problem: { field: 'Name', message: 'Name: is too short' } });
  });

  it('formats nested paths with dots and list items with [i]', () => {
    const result = check(schema, { Name: 'ab', Filter: { Ids: ['x', 3] } });
    expect(result).toEqual({ ok: false, problem: { field: 'Filter.Ids[1]', message: 'Filter.Ids[1]: must be a string' } });
  });

  it('reports only the first problem when several fields are wrong', () => {
    const result = check(schema, { Name: 1, Filter: { Ids: [3] } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.field).toBe('Name');
  });

  it('names an unknown key by its own path', () => {
    const result = check(schema, { Name: 'ab', Extra: true });
    expect(result).toEqual({ ok: false, problem: { field: 'Extra', message: 'Extra: is not a parameter of this operation' } });
  });

  it('reports a missing required key as required, not as unknown', () => {
    expect(check(schema, {})).toEqual({ ok: false, problem: { field: 'Name', message: 'Name: is required' } });
  });

  it('names the root (default "body") when the input is not an object', () => {
    expect(check(schema, 'text')).toEqual({ ok: false, problem: { field: 'body', message: 'body: must be a JSON object' } });
    expect(check(schema, null)).toEqual({ ok: false, problem: { field: 'body', message: 'body: must be a JSON object' } });
  });

  it('rejects a JSON array where an object body is expected, naming the root', () => {
    expect(check(schema, [{ Name: 'ab' }])).toEqual({ ok: false, problem: { field: 'body', message: 'body: must be a JSON object' } });
  });

  it('uses a custom root name when given', () => {
    const result = check(schema, 5, 'request');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toEqual({ field: 'request', message: 'request: must be a JSON object' });
  });

  it('clips the value a schema of valibot\'s own message repeats (found by fuzzing PUT /proxy/groups/{id}/sharing)', () => {
    const long = 'x'.repeat(16_000);
    const result = check(v.object({ members: v.record(v.string(), v.string()) }), { members: long });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.field).toBe('members');
    expect(result.problem.message).toMatch(/^members: Invalid type: Expected Object but received "x{63}… \(16002 characters\)$/);
    // A short value is repeated as it is.
    const short = check(v.object({ members: v.record(v.string(), v.string()) }), { members: 'abc' });
    if (!short.ok) expect(short.problem.message).toBe('members: Invalid type: Expected Object but received "abc"');
  });

  it('still lets array schemas take arrays', () => {
    expect(check(v.array(v.number()), [1, 2])).toEqual({ ok: true, value: [1, 2] });
  });
});

describe('issuePath', () => {
  it('returns an empty string for an issue without a path', () => {
    const result = v.safeParse(v.string(), 1);
    expect(result.success).toBe(false);
    if (!result.success) expect(issuePath(result.issues[0])).toBe('');
  });

  it('joins object keys with dots and array indexes with brackets', () => {
    const nested = v.object({ content: v.array(v.object({ image_url: v.object({ url: v.string() }) })) });
    const result = v.safeParse(nested, { content: [{ image_url: { url: 'a' } }, { image_url: { url: 1 } }] });
    expect(result.success).toBe(false);
    if (!result.success) expect(issuePath(result.issues[0])).toBe('content[1].image_url.url');
  });

  it('starts with an index when the root is a list', () => {
    const result = v.safeParse(v.array(v.string()), ['a', 2]);
    expect(result.success).toBe(false);
    if (!result.success) expect(issuePath(result.issues[0])).toBe('[1]');
  });
});

describe('recordOf', () => {
  const roles = v.strictObject({ members: recordOf(v.string(), v.picklist(['viewer', 'editor'], 'must be viewer or editor')) }, strictObjectMessage('unknown'));
  const parse = (json: string) => check(roles, JSON.parse(json));

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as a key, naming it, where v.record drops it', (key) => {
    const json = `{"members":{"m1":"viewer","${key}":"editor"}}`;
    expect(check(v.object({ members: v.record(v.string(), v.string()) }), JSON.parse(json)).ok).toBe(true);
    expect(parse(json)).toEqual({ ok: false, problem: { field: `members.${key}`, message: `members.${key}: is a reserved name and cannot be a key` } });
  });

  it('refuses a list where v.record takes its indexes as keys', () => {
    expect(parse('{"members":["viewer"]}')).toEqual({ ok: false, problem: { field: 'members', message: 'members: must be a JSON object' } });
    expect(check(v.object({ members: recordOf(v.string(), v.string(), 'must map ids to roles') }), { members: [] })).toEqual({
      ok: false,
      problem: { field: 'members', message: 'members: must map ids to roles' },
    });
  });

  it('takes what v.record takes, and names a bad value by its key', () => {
    expect(parse('{"members":{"m1":"viewer","toString":"editor"}}')).toEqual({ ok: true, value: { members: { m1: 'viewer', toString: 'editor' } } });
    expect(parse('{"members":{"m1":"owner"}}')).toEqual({ ok: false, problem: { field: 'members.m1', message: 'members.m1: must be viewer or editor' } });
  });
});
