import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MEMBER_TOKENS_MAX } from '../../../../shared';
import { memberObject } from '../../objects/handles';
import { call, proxyEnv, type Member } from '../../testing/proxy-test-client';
import { admin } from '../../testing/gateway-test-steps';
import { member, memberRows } from '../../testing/proxy-test-steps';
import { memberTokens } from '../../testing/leak-guard';
import { LAST_USED_STEP_MS, TokenBook } from './member-tokens';
import { hashToken } from './token';

/**
 * A member's tokens, one per browser (docs/identity.md): made with a member token, listed without
 * the token or its hash, deleted with effect on the very next request while the member's other
 * tokens keep working; the admin's view and revocation; kept across a restart of the proxy.
 */

/** A new token of `m`, as `POST /proxy/tokens` answers it, watched by the leak guard. */
async function newToken(m: Member, label = 'Laptop'): Promise<Member & { tokenId: string }> {
  const r = await call(m, 'POST', '/proxy/tokens', { label });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  memberTokens.push(r.body.token);
  return { ...m, token: r.body.token, tokenId: r.body.id };
}

const me = (m: Member) => call(m, 'GET', '/proxy/me');
const list = async (m: Member) => (await call(m, 'GET', '/proxy/tokens')).body.tokens as { id: string; label: string; createdAt: string; lastUsedAt: string | null; current: boolean }[];

describe('POST /proxy/tokens', () => {
  it('answers 201 {id,label,token} once; the new token is the member\'s, and the first one keeps working', async () => {
    const m = await member('tokens');
    const r = await call(m, 'POST', '/proxy/tokens', { label: '  Work laptop  ' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['id', 'label', 'token']);
    expect(r.body).toMatchObject({ id: expect.stringMatching(/^t[0-9a-f]{16}$/), label: 'Work laptop', token: expect.stringMatching(new RegExp(`^abk_${m.id}_[\\w-]{43}$`)) });
    memberTokens.push(r.body.token);
    expect((await me({ ...m, token: r.body.token })).body).toEqual({ id: m.id, name: 'tokens' });
    expect((await me(m)).status).toBe(200);
  });

  it.each([
    [{}, 'label'],
    [{ label: '' }, 'label'],
    [{ label: 'x'.repeat(65) }, 'label'],
    [{ label: 'x', scope: 'all' }, 'scope'],
  ])('%j is 400 naming %s', async (body, field) => {
    const r = await call(await member(), 'POST', '/proxy/tokens', body);
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([400, 'invalid_parameter', field]);
  });

  it(`a member holds at most ${MEMBER_TOKENS_MAX} tokens (409 too_many_tokens)`, async () => {
    const m = await member();
    await Promise.all(Array.from({ length: MEMBER_TOKENS_MAX - 1 }, (_, i) => newToken(m, `browser ${i}`)));
    const r = await call(m, 'POST', '/proxy/tokens', { label: 'one too many' });
    expect([r.status, r.body.error.code]).toEqual([409, 'too_many_tokens']);
    expect(await list(m)).toHaveLength(MEMBER_TOKENS_MAX);
  });
});

describe('GET /proxy/tokens', () => {
  it('lists every token with label and times, this one marked, never a token or a hash', async () => {
    const m = await member();
    const phone = await newToken(m, 'Phone');
    const tokens = await list(phone);
    expect(tokens.map((t) => [t.label, t.current])).toEqual([['Added by the admin', false], ['Phone', true]]);
    expect(tokens.every((t) => Object.keys(t).sort().join() === 'createdAt,current,id,label,lastUsedAt')).toBe(true);
    const text = JSON.stringify(tokens);
    for (const token of [m.token, phone.token]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashToken(token));
    }
    // Both were used (the admin's for POST, the phone's for this list).
    expect(tokens.every((t) => t.lastUsedAt !== null)).toBe(true);
    const unused = await newToken(m, 'Unused');
    expect((await list(m)).find((t) => t.id === unused.tokenId)!.lastUsedAt).toBeNull();
  });

  it('when a token was last used is written at most once a minute, however many requests', async () => {
    const m = await member();
    const hash = hashToken(m.token);
    const lastUsed = (book: TokenBook, sql: SqlStorage, at: number) => {
      book.use(hash, at);
      return sql.exec<{ last_used_at: number }>('SELECT last_used_at FROM tokens WHERE token_hash = ?', hash).one().last_used_at;
    };
    await runInDurableObject(memberObject(proxyEnv, m.id), (_instance, state) => {
      const book = new TokenBook(state.storage.sql);
      const t0 = 1_900_000_000_000;
      expect(lastUsed(book, state.storage.sql, t0)).toBe(t0);
      expect(lastUsed(book, state.storage.sql, t0 + 1)).toBe(t0);
      expect(lastUsed(book, state.storage.sql, t0 + LAST_USED_STEP_MS - 1)).toBe(t0);
      expect(lastUsed(book, state.storage.sql, t0 + LAST_USED_STEP_MS)).toBe(t0 + LAST_USED_STEP_MS);
    });
  });
});

describe('DELETE /proxy/tokens/:id', () => {
  it('204, and the deleted token fails on its next request while the member\'s others work', async () => {
    const m = await member();
    const laptop = await newToken(m, 'Laptop');
    const phone = await newToken(m, 'Phone');
    expect((await me(laptop)).status).toBe(200);
    expect((await call(phone, 'DELETE', `/proxy/tokens/${laptop.tokenId}`)).status).toBe(204);
    expect([(await me(laptop)).status, (await me(laptop)).body.error.code]).toEqual([401, 'unauthorized']);
    expect((await me(phone)).status).toBe(200);
    expect((await me(m)).status).toBe(200);
    expect((await list(m)).map((t) => t.label)).toEqual(['Added by the admin', 'Phone']);
  });

  it('a token deleted while requests with it are under way: every request after the delete is refused', async () => {
    const m = await member();
    const laptop = await newToken(m);
    const before = Array.from({ length: 10 }, () => me(laptop));
    const deleted = call(m, 'DELETE', `/proxy/tokens/${laptop.tokenId}`);
    for (const r of await Promise.all(before)) expect([200, 401]).toContain(r.status);
    expect((await deleted).status).toBe(204);
    const after = await Promise.all(Array.from({ length: 10 }, () => me(laptop)));
    expect(after.map((r) => r.status)).toEqual(Array(10).fill(401));
  });

  it('a member may delete the token in use; another member\'s token id is 404', async () => {
    const ana = await member('ana');
    const bea = await member('bea');
    const anaLaptop = await newToken(ana);
    const r = await call(bea, 'DELETE', `/proxy/tokens/${anaLaptop.tokenId}`);
    expect([r.status, r.body.error.code]).toEqual([404, 'token_not_found']);
    expect((await me(anaLaptop)).status).toBe(200);
    expect((await call(anaLaptop, 'DELETE', `/proxy/tokens/${anaLaptop.tokenId}`)).status).toBe(204);
    expect((await me(anaLaptop)).status).toBe(401);
  });

  it('an unknown token id ending in a full stop is named in one sentence, with param tokenId, by the member\'s route and the admin\'s (found by fuzzing)', async () => {
    const m = await member('dots');
    for (const id of ['5&z.', 'x..', '...']) {
      const own = await call(m, 'DELETE', `/proxy/tokens/${encodeURIComponent(id)}`);
      expect([own.status, own.body.error.code, own.body.error.param, own.body.error.message]).toEqual([404, 'token_not_found', 'tokenId', `No token ${id} exists for you.`]);
      const theirs = await admin('DELETE', `/admin/members/${m.id}/tokens/${encodeURIComponent(id)}`);
      expect([theirs.status, theirs.body.error.code, theirs.body.error.param, theirs.body.error.message]).toEqual([404, 'token_not_found', 'tokenId', `No token ${id} of this member exists.`]);
    }
  });
});

describe('the admin', () => {
  it('lists a member\'s tokens and revokes one; rotation replaces them all; revocation ends them all', async () => {
    const m = await member();
    const laptop = await newToken(m, 'Laptop');
    const listed = await admin('GET', `/admin/members/${m.id}/tokens`);
    expect(listed.body.tokens.map((t: any) => [t.label, t.current])).toEqual([['Added by the admin', false], ['Laptop', false]]);
    expect(JSON.stringify(listed.body)).not.toContain(laptop.token);
    expect((await admin('DELETE', `/admin/members/${m.id}/tokens/${laptop.tokenId}`)).status).toBe(204);
    expect((await me(laptop)).status).toBe(401);
    expect((await me(m)).status).toBe(200);
    expect((await admin('DELETE', `/admin/members/${m.id}/tokens/${laptop.tokenId}`)).body.error.code).toBe('token_not_found');
    expect((await admin('GET', '/admin/members/m0000000000000000/tokens')).body.error.code).toBe('member_not_found');

    const phone = await newToken(m, 'Phone');
    const rotated = await admin('POST', `/admin/members/${m.id}/token`);
    memberTokens.push(rotated.body.token);
    expect([(await me(m)).status, (await me(phone)).status, (await me({ ...m, token: rotated.body.token })).status]).toEqual([401, 401, 200]);
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens.map((t: any) => t.label)).toEqual(['Rotated by the admin']);

    const tablet = await newToken({ ...m, token: rotated.body.token }, 'Tablet');
    await admin('DELETE', `/admin/members/${m.id}`);
    expect((await me(tablet)).status).toBe(401);
    expect((await admin('GET', `/admin/members/${m.id}/tokens`)).body.tokens).toEqual([]);
  });
});

describe('across a restart of the proxy', () => {
  it('a made token still works and a deleted one stays refused', async () => {
    const m = await member();
    const kept = await newToken(m, 'Kept');
    const gone = await newToken(m, 'Gone');
    expect((await call(m, 'DELETE', `/proxy/tokens/${gone.tokenId}`)).status).toBe(204);
    await abortAllDurableObjects();
    expect([(await me(kept)).status, (await me(gone)).status, (await me(m)).status]).toEqual([200, 401, 200]);
  });

  it('a member object from before tokens: its one token becomes its first token, once', async () => {
    const m = await member();
    // As an older object left it: the token's hash in the profile, no table of tokens.
    await memberRows(m, 'DROP TABLE tokens');
    await memberRows(m, 'UPDATE profile SET token_hash = ?', hashToken(m.token));
    await abortAllDurableObjects();
    expect((await me(m)).status).toBe(200);
    const [first] = await list(m);
    expect(first).toMatchObject({ label: 'Added by the admin', current: true });
    // Deleted, it stays deleted through the next start.
    const other = await newToken(m);
    expect((await call(other, 'DELETE', `/proxy/tokens/${first!.id}`)).status).toBe(204);
    await abortAllDurableObjects();
    expect((await me(m)).status).toBe(401);
    expect((await me(other)).status).toBe(200);
  });
});
