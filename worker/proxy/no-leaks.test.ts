import { describe, expect, it, vi } from 'vitest';
import { adminHeaders, api, call, mediaUrl, PAST_DEADLINE_MS, proxyEnv, proxyFetch, sandbox, seen, waitFor, type Member } from './testing/proxy-test-client';
import { asset, consent, group, member, memberRows, MODEL, PNG, portraitSession, untilActive } from './testing/proxy-test-steps';
import { memberTokens } from './testing/leak-guard';

/**
 * Contract section 7: no log line, response, error message or stored record visible to members
 * ever holds the secret key, the sk- key, the admin token, a member token (outside the admin
 * responses that issue it) or the service's partner tokens. Runs every route, failures included.
 */

const METHODS = ['log', 'info', 'warn', 'error'] as const;
const spies = () => METHODS.map((m) => (vi.isMockFunction(console[m]) ? vi.mocked(console[m]) : vi.spyOn(console, m)));

/** An admin response that issues a token: `{"id","name","token"}` (add) or `{"id","token"}` (rotate). */
function issuesToken(entry: string): boolean {
  return /^20[01] \[.*\] \{"id":"m[0-9a-f]{16}"(,"name":"[^"]*")?,"token":"abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}"\}$/.test(entry);
}

async function everyRoute(): Promise<{ members: Member[]; partnerTokens: string[] }> {
  const tokens: string[] = [];
  // Admin API, including failures.
  const a = await member('leak-a');
  const b = await member('leak-b');
  await proxyFetch('/admin/members', { headers: adminHeaders() });
  await proxyFetch('/admin/members', { method: 'POST', headers: adminHeaders(), body: '{}' });
  await proxyFetch('/admin/members', { headers: { Authorization: 'Bearer wrong' } });
  await proxyFetch('/admin/members/m0000000000000000', { method: 'DELETE', headers: adminHeaders() });
  const rotated = await (await proxyFetch(`/admin/members/${b.id}/token`, { method: 'POST', headers: adminHeaders() })).json() as { token: string };
  memberTokens.push(rotated.token);
  const oldB = b.token;
  b.token = rotated.token;
  await call(oldB, 'GET', '/proxy/me');
  await proxyFetch('/healthz');

  // Extras.
  await call(a, 'GET', '/proxy/me');
  await consent(a);
  await call(a, 'POST', '/proxy/consents', { scope: 'other' });
  await call(a, 'GET', '/proxy/consents');
  await call(a, 'GET', '/proxy/capabilities');
  await proxyFetch('/v1/models', { method: 'OPTIONS', headers: { Origin: 'chrome-extension://x', 'Access-Control-Request-Method': 'GET' } });

  // The library: all twelve operations, with failures.
  const g = await group(a, 'leaky');
  await api(a, 'GetAssetGroup', { Id: g });
  await api(a, 'UpdateAssetGroup', { Id: g, Description: 'd' });
  await api(a, 'ListAssetGroups', {});
  const as = await asset(a, g);
  const failed = await api(a, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'bad', URL: `${mediaUrl}/status/403` }, { idempotencyKey: 'leak-asset' });
  await api(a, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'bad', URL: `${mediaUrl}/status/403` }, { idempotencyKey: 'leak-asset' });
  await api(a, 'ListAssets', {});
  await api(a, 'UpdateAsset', { Id: as, Name: 'renamed' });
  await waitFor(() => api(a, 'GetAsset', { Id: failed.result.Id }), (r) => r.result.Status === 'Failed');
  await api(b, 'GetAsset', { Id: as });
  await api(b, 'CreateAsset', { GroupId: g, AssetType: 'Image', Name: 'x', URL: PNG() });
  await api(a, 'CreateAssetGroup', { Name: '' });
  await api(a, 'Nope', {});
  await api(a, 'ListAssets', {}, { rawBody: '{' });
  await api(a, 'CreateAssetGroup', { Name: 'k1' }, { idempotencyKey: 'leak-group' });
  await api(a, 'CreateAssetGroup', { Name: 'k2' }, { idempotencyKey: 'leak-group' });
  await sandbox.fault({ target: 'api/v3', status: 429, retryAfter: 1, count: 1 });
  await api(a, 'GetAssetGroup', { Id: g });
  await sandbox.fault({ target: 'api/v3', status: 500, count: 1 });
  await api(a, 'GetAssetGroup', { Id: g });
  await sandbox.fault({ target: 'api/v3', status: 503, count: 1 });
  await api(a, 'ListAssets', {});

  // Portrait: one resolved session, one left pending, and attempts by the other member.
  const resolved = await portraitSession(a);
  tokens.push(resolved.partnerToken);
  await api(a, 'ResolvePartnerToken', { PartnerToken: resolved.handle });
  await sandbox.complete(resolved.h5Link, 'Leak Person', 'desc');
  await api(b, 'ResolvePartnerToken', { PartnerToken: resolved.handle });
  await api(b, 'ResolvePartnerToken', { PartnerToken: resolved.partnerToken });
  const person = await api(a, 'ResolvePartnerToken', { PartnerToken: resolved.handle });
  await api(a, 'ResolvePartnerToken', { PartnerToken: resolved.handle });
  await api(a, 'ListAssets', { Filter: { GroupIds: [person.result.GroupId], GroupType: 'LivenessFace' } });
  const pending = await portraitSession(a);
  tokens.push(pending.partnerToken);
  await api(a, 'ResolvePartnerToken', { PartnerToken: pending.handle });
  await api(b, 'CreatePortraitSession', {});

  // Video, with failures.
  await call(a, 'GET', '/v1/models');
  const created = await call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }, { 'Idempotency-Key': 'leak-video' });
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' }, { 'Idempotency-Key': 'leak-video' });
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'y' }, { 'Idempotency-Key': 'leak-video' });
  await call(a, 'GET', `/v1/video/generations/${created.body.id}`);
  await call(b, 'GET', `/v1/video/generations/${created.body.id}`);
  await call(a, 'POST', '/v1/video/generations', '{"model":');
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${as}` }, role: 'reference_image' }] });
  await call(b, 'POST', '/v1/video/generations', { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${as}` }, role: 'reference_image' }] });
  await untilActive(a, as);
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `asset://${as}` }, role: 'reference_image' }] });
  await sandbox.fault({ target: 'v1-create', status: 429, retryAfter: 1, count: 1 });
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'x' });
  await sandbox.fault({ target: 'v1-get', status: 500, count: 1 });
  await call(a, 'GET', `/v1/video/generations/${created.body.id}`);
  await sandbox.fault({ target: 'v1-models', status: 503, count: 1 });
  await call(a, 'GET', '/v1/models');
  await sandbox.fault({ target: 'v1-create', status: 200, delayMs: PAST_DEADLINE_MS, count: 1 });
  await call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'slow' }, { 'Idempotency-Key': 'leak-slow' });
  await waitFor(() => call(a, 'POST', '/v1/video/generations', { model: MODEL, prompt: 'slow' }, { 'Idempotency-Key': 'leak-slow' }), (r) => r.status === 200, 10_000);
  await call(a, 'GET', '/nowhere');

  // Revocation last: the revoked token is refused everywhere.
  await proxyFetch(`/admin/members/${b.id}`, { method: 'DELETE', headers: adminHeaders() });
  await api(b, 'ListAssetGroups', {});
  await call(b, 'GET', '/v1/models');
  await call(b, 'GET', '/proxy/me');
  return { members: [a, b, { ...b, token: oldB }], partnerTokens: tokens };
}

describe('no secret leaves the proxy', () => {
  it('in any log line, response, or member-visible stored record, on every route including failures', async () => {
    const logStart = spies().map((s) => s.mock.calls.length);
    const seenStart = seen.length;
    const { members, partnerTokens } = await everyRoute();
    const logs = spies().flatMap((s, i) => s.mock.calls.slice(logStart[i]).map((args) => args.map(String).join(' ')));
    const responses = seen.slice(seenStart);
    expect(logs.length).toBeGreaterThan(50);
    expect(responses.length).toBeGreaterThan(50);

    const secrets: [string, string][] = [
      ['SECRET_ACCESS_KEY', proxyEnv.SECRET_ACCESS_KEY],
      ['VIDEO_API_KEY', proxyEnv.VIDEO_API_KEY],
      ['ADMIN_TOKEN', proxyEnv.ADMIN_TOKEN],
      ...partnerTokens.map((t, i): [string, string] => [`partner token ${i}`, t]),
    ];
    const tokens = members.map((m): [string, string] => [`member token of ${m.id}`, m.token]);
    // The sandbox's real partner tokens have their own shape; none may show through.
    const shapes = [/abk_m[0-9a-f]{16}_/, /\bpt-[0-9a-f]{16,}/, /\bsk-[A-Za-z0-9]/, /HMAC-SHA256 Credential/];

    for (const line of logs) {
      for (const [name, value] of [...secrets, ...tokens]) expect(line.includes(value), `${name} in log line ${line}`).toBe(false);
      for (const shape of shapes) expect(line, 'a log line').not.toMatch(shape);
    }
    let issued = 0;
    for (const response of responses) {
      for (const [name, value] of secrets) expect(response.includes(value), `${name} in response ${response.slice(0, 300)}`).toBe(false);
      if (issuesToken(response)) {
        issued++;
        continue;
      }
      for (const [name, value] of tokens) expect(response.includes(value), `${name} in response ${response.slice(0, 300)}`).toBe(false);
      for (const shape of shapes) expect(response, 'a response').not.toMatch(shape);
    }
    expect(issued).toBe(3); // two adds and one rotation

    // Stored records a member can see again: replayed idempotent responses, owned ids, consents.
    for (const m of members.slice(0, 2)) {
      for (const table of ['idempotency', 'owned', 'consents']) {
        const text = JSON.stringify(await memberRows(m, `SELECT * FROM ${table}`));
        for (const [name, value] of [...secrets, ...tokens]) expect(text.includes(value), `${name} in ${table} of ${m.id}`).toBe(false);
        for (const shape of shapes) expect(text, `${table} of ${m.id}`).not.toMatch(shape);
      }
    }
    const replays = await memberRows<{ body: string }>(members[0]!, "SELECT body FROM idempotency WHERE state = 'done'");
    expect(replays.length).toBeGreaterThanOrEqual(3);

    // The service's token of the resolved session is forgotten; the pending one is kept only server-side.
    const handles = await memberRows<{ partner_token: string; state: string }>(members[0]!, 'SELECT partner_token, state FROM portrait_handles ORDER BY state');
    expect(handles).toEqual([
      { partner_token: partnerTokens[1], state: 'pending' },
      { partner_token: '', state: 'resolved' },
    ]);
  });
});
