import { describe, expect, it } from 'vitest';
import { admin } from '../../testing/gateway-test-steps';
import { call } from '../../testing/proxy-test-client';
import { member } from '../../testing/proxy-test-steps';
import { memberTokens } from '../../testing/leak-guard';

/**
 * The label rule (shared/labels.ts, docs/identity.md#labels-one-rule-for-names-people-give) on the routes that store member names
 * and token labels: what is stored, listed and shown to teammates is the cleaned label; nothing left
 * is a 400 naming the field.
 */

const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const listedName = async (id: string) => (await admin('GET', '/admin/members')).body.members.find((m: any) => m.id === id)?.name;

describe('member names', () => {
  it('a name with NUL, BEL and a right-to-left override is stored, listed and shown to teammates cleaned', async () => {
    const added = await admin('POST', '/admin/members', { name: ' Ada\u0000 Lo\u0007vel\u202Eace ' });
    expect(added.status).toBe(201);
    memberTokens.push(added.body.token);
    expect(added.body.name).toBe('Ada Lovelace');
    expect(await listedName(added.body.id)).toBe('Ada Lovelace');
    const teammate = await member('labels-teammate');
    const team = (await call(teammate, 'GET', '/proxy/team')).body.members;
    expect(team.find((m: any) => m.id === added.body.id)?.name).toBe('Ada Lovelace');
    expect(JSON.stringify(team)).not.toMatch(HIDDEN);
  });

  it('a name that is only control and direction characters is 400 naming it, and no member is added', async () => {
    const before = (await admin('GET', '/admin/members')).body.members.length;
    const r = await admin('POST', '/admin/members', { name: '\u202E\u0000 \u0007\u2066' });
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', 'name']);
    expect(r.body.error.message).toMatch(/^name: must not be empty/);
    expect((await admin('GET', '/admin/members')).body.members.length).toBe(before);
  });

  it('a name of 100 emoji is 100 characters; 101 are refused', async () => {
    const ok = await admin('POST', '/admin/members', { name: '\u{1F3A8}'.repeat(100) });
    expect(ok.status).toBe(201);
    memberTokens.push(ok.body.token);
    expect(ok.body.name).toBe('\u{1F3A8}'.repeat(100));
    const long = await admin('POST', '/admin/members', { name: '\u{1F3A8}'.repeat(101) });
    expect([long.status, long.body.error.param]).toEqual([400, 'name']);
    expect(long.body.error.message).toMatch(/^name: must be at most 100 characters/);
  });

  it('a name is stored in NFC', async () => {
    const added = await admin('POST', '/admin/members', { name: 'Rene\u0301e' });
    memberTokens.push(added.body.token);
    expect(await listedName(added.body.id)).toBe('Ren\u00E9e');
  });
});

describe('token labels', () => {
  it('a label with NUL, BEL and a right-to-left override is stored and listed cleaned', async () => {
    const m = await member('labels-tokens');
    const made = await call(m, 'POST', '/proxy/tokens', { label: '\u202EWork\u0000 lap\u0007top ' });
    expect(made.status).toBe(201);
    memberTokens.push(made.body.token);
    expect(made.body.label).toBe('Work laptop');
    const labels = (await call(m, 'GET', '/proxy/tokens')).body.tokens.map((t: any) => t.label);
    expect(labels).toEqual(['Added by the admin', 'Work laptop']);
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens.map((t: any) => t.label)).toEqual(labels);
  });

  it('a label with nothing left is 400 naming it, and no token is made', async () => {
    const m = await member('labels-empty-token');
    const r = await call(m, 'POST', '/proxy/tokens', { label: '\u0007\u202E\u0000' });
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', 'label']);
    expect((await call(m, 'GET', '/proxy/tokens')).body.tokens).toHaveLength(1);
  });

  it('a label of 64 emoji is 64 characters; 65 are refused', async () => {
    const m = await member('labels-emoji-token');
    const made = await call(m, 'POST', '/proxy/tokens', { label: '\u{1F4BB}'.repeat(64) });
    expect(made.status).toBe(201);
    memberTokens.push(made.body.token);
    const long = await call(m, 'POST', '/proxy/tokens', { label: '\u{1F4BB}'.repeat(65) });
    expect([long.status, long.body.error.param]).toEqual([400, 'label']);
  });
});
