import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_NAME_MAX, SOURCE_TITLE_MAX, TOKEN_LABEL_MAX } from '../../shared';
import { assertNoViolations, FuzzReport, fuzzRoute, fuzzSettings, fuzzTimeoutMs, type FuzzAnswer } from '../../test/support/fuzz';
import app from './index';
import type { ProxyEnv } from './infra/settings/proxy-env';
import { adminHeaders, appFetch, mediaUrl, proxyEnv, recordSeen, sandbox, type Member } from './testing/proxy-test-client';
import { asset, count, group, member } from './testing/proxy-test-steps';

/**
 * Property tests of the label rule (shared/labels.ts, docs/identity.md#labels-one-rule-for-names-people-give) on every route that
 * stores a label: member names, token labels (`POST /proxy/tokens`, member sign-in's `label`) and
 * source titles. Labels are built from the characters the rule removes (controls, bidirectional
 * overrides and isolates, unpaired surrogates), accents to compose, emoji, spaces, and lengths at
 * and past the limit. Besides fuzz.test.ts's checks (never a 5xx, a refusal names the field, nothing
 * changed upstream), whatever is stored is clean: none of the removed characters, NFC, trimmed,
 * not empty (titles: null instead), and at most the label's length in characters.
 */

const settings = fuzzSettings();
const report = new FuzzReport('proxy (labels)', settings);
const timeout = fuzzTimeoutMs(settings);
const MEMBER_AUD = 'arkbridge-fuzz-labels';
const CHROME_REDIRECT = `https://${'a'.repeat(32)}.chromiumapp.org/`;
const SIGNIN_EMAIL = 'fuzz-labels@example.com';

let m: Member;
let signer: Member;
let assetId: string;
let jwt: string;

beforeAll(async () => {
  [m, signer] = await Promise.all([member('fuzz-labels'), member('fuzz-labels-signer')]);
  assetId = await asset(m, await group(m, 'fuzz-labels'), 'fuzz-labels');
  await appFetch(`/admin/members/${signer.id}/email`, { method: 'PUT', headers: adminHeaders(), body: JSON.stringify({ email: SIGNIN_EMAIL }) });
  const r = await fetch(`${mediaUrl}/access/sign`, { method: 'POST', body: JSON.stringify({ claims: { email: SIGNIN_EMAIL, iss: mediaUrl, aud: [MEMBER_AUD] } }) });
  jwt = ((await r.json()) as { jwt: string }).jwt;
});
afterAll(() => report.print());

/** What the rule removes: controls (C0, DEL, C1), bidirectional embeddings/overrides/isolates, unpaired surrogates. */
const REMOVED = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HIDDEN = ['\u0000', '\u0007', '\t', '\n', '\u001f', '\u007f', '\u0085', '\u009f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\ud800', '\udc00'];
const SHOWN = [' ', '\u00a0', '\ufeff', 'e', '\u0301', 'e\u0301', '\u00e9', '\u{1F600}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '\u{1F1EB}\u{1F1F7}', '\u200e', '\u200f', '\u061c', '\u05d0', 'A', '.'];

const piece = fc.oneof(fc.constantFrom(...HIDDEN), fc.constantFrom(...SHOWN), fc.string({ maxLength: 4, unit: 'grapheme' }), fc.string({ maxLength: 3, unit: 'binary' }));
/** A label: mixed pieces, one character repeated around the limit, or a long run of stacked accents. */
const label = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(piece, { maxLength: 16 }).map((p) => p.join('')) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('x', '\u{1F600}', 'e\u0301', '\u202ex'), fc.integer({ min: max - 2, max: max + 2 })).map(([c, n]) => c.repeat(n)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => `a${'\u0301'.repeat(n)}`) },
  );

/** Whether a stored label breaks the rule: a problem, or null. */
function unclean(stored: unknown, max: number, nullable = false): string | null {
  if (stored === null && nullable) return null;
  if (typeof stored !== 'string') return `stored ${JSON.stringify(stored)}, not a string`;
  if (REMOVED.test(stored)) return `stored ${JSON.stringify(stored)} holds a removed character`;
  if (stored !== stored.normalize('NFC')) return `stored ${JSON.stringify(stored)} is not NFC`;
  if (stored !== stored.trim() || !stored) return `stored ${JSON.stringify(stored)} is not trimmed, or empty`;
  const characters = [...new Intl.Segmenter().segment(stored)].length;
  return characters > max ? `stored ${characters} characters, over ${max}` : null;
}

const upstream = async () => count(await sandbox.stats());
const bodyOf = (answer: FuzzAnswer) => answer.json as any;

async function run<T>(name: string, cases: fc.Arbitrary<T>, send: (input: T) => Promise<Response>, stored: (answer: FuzzAnswer) => string | null, afterEach?: (answer: FuzzAnswer | null) => Promise<void>) {
  const stats = await fuzzRoute(report, {
    name,
    cases,
    send,
    upstream,
    // A 302 is /connect/access handing a token over: its label was stored.
    check: (_input, answer) => (answer.status < 400 ? stored(answer) : null),
    ...(afterEach ? { afterEach: (_input: T, answer: FuzzAnswer | null) => afterEach(answer) } : {}),
  });
  // An unpaired surrogate in a case's description breaks the test runner's report: escaped.
  const escape = (text: string) => text.replace(new RegExp(REMOVED.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  for (const violation of stats.violations) Object.assign(violation, { input: escape(violation.input), problem: escape(violation.problem) });
  assertNoViolations(stats);
}

const json = (who: Member) => ({ Authorization: `Bearer ${who.token}`, 'Content-Type': 'application/json' });
/** A member's tokens stay under 20: every token a case made goes again. */
const dropToken = (who: Member, tokenId: string | undefined) =>
  tokenId ? appFetch(`/admin/members/${who.id}/tokens/${tokenId}`, { method: 'DELETE', headers: adminHeaders() }).then(() => undefined) : Promise.resolve();
const newestToken = async (who: Member): Promise<string | undefined> => {
  const listed = (await (await appFetch(`/admin/members/${who.id}/tokens`, { headers: adminHeaders() })).json()) as { tokens: { id: string }[] };
  return listed.tokens.length > 1 ? listed.tokens.at(-1)!.id : undefined;
};

describe('fuzz: labels', () => {
  it('POST /admin/members: hostile names are stored clean or refused naming `name`', { timeout }, async () => {
    await run('POST /admin/members (labels)', label(MEMBER_NAME_MAX), (name) =>
      appFetch('/admin/members', { method: 'POST', headers: adminHeaders(), body: JSON.stringify({ name }) }),
      (answer) => unclean(bodyOf(answer)?.name, MEMBER_NAME_MAX),
    );
  });

  it('POST /proxy/tokens: hostile labels are stored clean or refused naming `label`', { timeout }, async () => {
    await run('POST /proxy/tokens (labels)', label(TOKEN_LABEL_MAX), (l) =>
      appFetch('/proxy/tokens', { method: 'POST', headers: json(m), body: JSON.stringify({ label: l }) }),
      (answer) => unclean(bodyOf(answer)?.label, TOKEN_LABEL_MAX),
      (answer) => dropToken(m, answer && answer.status < 300 ? bodyOf(answer)?.id : undefined),
    );
  });

  it('GET /connect/access: hostile labels are stored clean or refused naming `label`', { timeout }, async () => {
    let last: string | null = null;
    await run('GET /connect/access (labels)', label(TOKEN_LABEL_MAX), async (l) => {
      const env: ProxyEnv = { ...proxyEnv, MEMBER_ACCESS_AUD: MEMBER_AUD };
      let query: string;
      try {
        query = encodeURIComponent(l);
      } catch {
        query = `${encodeURIComponent(l.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
      }
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request(`https://proxy.test/connect/access?redirect=${encodeURIComponent(CHROME_REDIRECT)}&label=${query}`, { headers: { 'Cf-Access-Jwt-Assertion': jwt }, redirect: 'manual' }), env, ctx);
      await waitOnExecutionContext(ctx);
      recordSeen(`${response.status} ${await response.clone().text()}`);
      // The label as stored, read once the token is made (the redirect carries only the token).
      last = response.status === 302 ? ((await (await appFetch(`/admin/members/${signer.id}/tokens`, { headers: adminHeaders() })).json()) as any).tokens.at(-1)?.label : null;
      return response;
    }, () => unclean(last, TOKEN_LABEL_MAX), async (answer) => {
      await dropToken(signer, answer?.status === 302 ? await newestToken(signer) : undefined);
    });
  });

  it('PUT /proxy/assets/{assetId}/source: hostile titles are stored clean (or null) or refused naming `pageTitle`', { timeout }, async () => {
    await run('PUT /proxy/assets/{assetId}/source (labels)', label(SOURCE_TITLE_MAX), (pageTitle) =>
      appFetch(`/proxy/assets/${assetId}/source`, { method: 'PUT', headers: json(m), body: JSON.stringify({ pageUrl: 'https://example.com/\u202epage', pageTitle, capturedAt: '2026-11-26T10:00:00Z', how: 'link' }) }),
      (answer) => unclean(bodyOf(answer)?.source?.pageTitle, SOURCE_TITLE_MAX, true) ?? (REMOVED.test(bodyOf(answer)?.source?.pageUrl) ? 'the page URL holds a removed character' : null),
    );
  });

  it('what is listed afterwards is clean: members, tokens, the source', async () => {
    const members = ((await (await appFetch('/admin/members', { headers: adminHeaders() })).json()) as any).members;
    for (const listed of members) expect(unclean(listed.name, MEMBER_NAME_MAX), listed.id).toBeNull();
    for (const who of [m, signer]) {
      const tokens = ((await (await appFetch(`/admin/members/${who.id}/tokens`, { headers: adminHeaders() })).json()) as any).tokens;
      for (const t of tokens) expect(unclean(t.label, TOKEN_LABEL_MAX)).toBeNull();
    }
    const sources = ((await (await appFetch('/proxy/sources', { method: 'POST', headers: json(m), body: JSON.stringify({ ids: [assetId] }) })).json()) as any).sources;
    expect(unclean(sources[assetId]?.pageTitle ?? null, SOURCE_TITLE_MAX, true)).toBeNull();
  });
});
