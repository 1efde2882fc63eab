import { describe, expect, it, vi } from 'vitest';
import { adminHeaders, api, call, proxyEnv, proxyFetch, seen, type Member } from './testing/proxy-test-client';
import { group, member, memberRows } from './testing/proxy-test-steps';
import { issuedSecrets, mintAccessKey, useAuth, vendorSign, type AccessKey } from './testing/signed-client';

/**
 * Contract section 20, beside no-leaks.test.ts: no member's secret access key, nor the team's
 * secret key, nor ACCESS_KEY_SECRET, appears in any answer (but the one that mints the key), log
 * line, audit entry or stored row, over a run of every access-key route and signed call, failures included.
 */

const METHODS = ['log', 'info', 'warn', 'error'] as const;
const spies = () => METHODS.map((m) => (vi.isMockFunction(console[m]) ? vi.mocked(console[m]) : vi.spyOn(console, m)));

async function run(): Promise<{ a: Member; keys: AccessKey[] }> {
  const a = await member('leak-keys');
  const b = await member('leak-keys-b');
  const keys: AccessKey[] = [];
  for (const [who, label] of [[a, 'one'], [a, 'two'], [b, 'theirs']] as const) {
    const key = await mintAccessKey(who.token, label);
    if (key instanceof Response) throw new Error('no key');
    keys.push(key);
  }
  await call(a, 'POST', '/proxy/access-keys', { label: '' });
  await call(a, 'GET', '/proxy/access-keys');
  await proxyFetch(`/admin/members/${a.id}/access-keys`, { headers: adminHeaders() });
  // Signed calls: good ones, then each refusal.
  useAuth('signed');
  try {
    const g = await group(a, 'leak-signed');
    await api(a, 'GetAssetGroup', { Id: g });
    await api(b, 'GetAssetGroup', { Id: g });
    await api(a, 'Nope', {});
    await api(a, 'ListAssets', {}, { rawBody: '{' });
  } finally {
    useAuth('bearer');
  }
  const path = '/api/v3?Action=ListAssetGroups&Version=2024-01-01';
  const send = (headers: Record<string, string>, body = '{}') => proxyFetch(path, { method: 'POST', headers, body });
  const signedHeaders = (key: AccessKey, date?: Date) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    vendorSign(key, path, headers, '{}', date);
    return headers;
  };
  await send(signedHeaders(keys[0]!), '{"changed":1}');
  await send(signedHeaders(keys[0]!, new Date(Date.now() - 3_600_000)));
  await send(signedHeaders({ ...keys[0]!, secretAccessKey: proxyEnv.ACCESS_KEY_SECRET! }));
  await call(a, 'DELETE', `/proxy/access-keys/${keys[1]!.id}`);
  await send(signedHeaders(keys[1]!));
  await proxyFetch(`/admin/members/${b.id}`, { method: 'DELETE', headers: adminHeaders() });
  await send(signedHeaders(keys[2]!));
  return { a, keys };
}

describe('no secret of an access key leaves the proxy', () => {
  it('in any log line, answer, audit entry or stored row', async () => {
    const logStart = spies().map((s) => s.mock.calls.length);
    const seenStart = seen.length;
    const { a, keys } = await run();
    const audit = await (await proxyFetch('/admin/audit?limit=500', { headers: adminHeaders() })).text();
    const logs = spies().flatMap((s, i) => s.mock.calls.slice(logStart[i]).map((args) => args.map(String).join(' ')));
    const answers = seen.slice(seenStart);
    expect(logs.length).toBeGreaterThan(10);
    expect(answers.length).toBeGreaterThan(10);
    expect(issuedSecrets).toEqual(expect.arrayContaining(keys.map((k) => k.secretAccessKey)));

    const secrets: [string, string][] = [
      ['SECRET_ACCESS_KEY', proxyEnv.SECRET_ACCESS_KEY],
      ['ACCESS_KEY_SECRET', proxyEnv.ACCESS_KEY_SECRET!],
      ...issuedSecrets.map((secret, i): [string, string] => [`secret access key ${i}`, secret]),
    ];
    /** The one answer each secret may appear in: the 201 that minted it. */
    const mints = (entry: string, value: string) => entry.startsWith('201 ') && entry.includes(`"secretAccessKey":"${value}"`);
    for (const [name, value] of secrets) {
      for (const line of logs) expect(line.includes(value), `${name} in log line ${line}`).toBe(false);
      for (const entry of answers) if (!mints(entry, value)) expect(entry.includes(value), `${name} in answer ${entry.slice(0, 200)}`).toBe(false);
      expect(audit.includes(value), `${name} in the audit log`).toBe(false);
      expect(JSON.stringify(await memberRows(a, 'SELECT * FROM access_keys')).includes(value), `${name} stored`).toBe(false);
    }
    for (const line of logs) expect(line, 'a log line').not.toMatch(/abks_/);
    for (const entry of answers.filter((e) => /abks_/.test(e))) expect(entry, 'an answer holding a secret access key').toMatch(/^201 .*\{"id":"k[0-9a-f]{16}","label":"[^"]*","accessKeyId":"AKAB[^"]+","secretAccessKey":"abks_[\w-]+","createdAt":"[^"]+"\}$/);
  });
});
