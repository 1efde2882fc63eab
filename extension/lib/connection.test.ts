import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { getConnection, markNeedsReconnect, normalizeProxyUrl, originPattern, setConnection, tokenProblem } from './connection';
import { closeDb, DB_NAME } from './db';

afterEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

describe('proxy URL rules', () => {
  it('accepts https and reduces it to the origin', () => {
    expect(normalizeProxyUrl(' https://ark.example.dev/some/path ')).toEqual({ ok: true, url: 'https://ark.example.dev' });
  });
  it('accepts plain http only for the local stack', () => {
    expect(normalizeProxyUrl('http://127.0.0.1:8787')).toEqual({ ok: true, url: 'http://127.0.0.1:8787' });
    expect(normalizeProxyUrl('http://ark.example.dev')).toMatchObject({ ok: false, message: expect.stringContaining('https://') });
  });
  it('rejects text that is not a URL and URLs with credentials, naming the field', () => {
    expect(normalizeProxyUrl('ark.example.dev')).toMatchObject({ ok: false, message: expect.stringMatching(/^Proxy URL:/) });
    expect(normalizeProxyUrl('https://me:pw@ark.example.dev')).toMatchObject({ ok: false, message: expect.stringMatching(/user name/) });
  });
  it('asks for access to exactly the proxy origin', () => {
    expect(originPattern('https://ark.example.dev')).toBe('https://ark.example.dev/*');
  });
});

describe('member token shape', () => {
  it('accepts a well-formed token and names the field otherwise', () => {
    expect(tokenProblem(`abk_m0123456789abcdef_${'a'.repeat(43)}`)).toBeNull();
    expect(tokenProblem('')).toMatch(/^Member token:/);
    expect(tokenProblem('sk-123')).toMatch(/^Member token: .*abk_/);
  });
});

describe('stored connection', () => {
  it('is empty until connected, then kept in the extension database', async () => {
    expect(await getConnection()).toBeNull();
    await setConnection({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
    expect(await getConnection()).toEqual({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
  });
  it('remembers that the proxy refused the token', async () => {
    await setConnection({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
    await markNeedsReconnect();
    expect(await getConnection()).toMatchObject({ needsReconnect: true });
  });
});
