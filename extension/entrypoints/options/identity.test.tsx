import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, byLabel, click, mount, text, type, unmount } from '@/components/dom-testing';
import { App } from '@/entrypoints/options/OptionsApp';
import { tokenFromRedirect } from '@/lib/connect/member-signin';
import { closeDb, DB_NAME } from '@/lib/storage/database';
import { getConnection, setConnection } from '@/lib/storage/stored-connection';

/**
 * The options page and member identity (docs/extension.md): "Sign in with your team account" when
 * the proxy offers it (the identity flow hands back a token, stored as a pasted one), and the
 * member's browsers, this one marked, the others revocable.
 */

const PROXY = 'https://proxy.test';
const REDIRECT = `https://${'b'.repeat(32)}.chromiumapp.org/`;
const TOKEN = `abk_m0123456789abcdef_${'a'.repeat(43)}`;
const SIGNED_IN = `abk_m0123456789abcdef_${'s'.repeat(43)}`;

interface Held {
  id: string;
  label: string;
  token: string;
}

/** A fake proxy: /connect/methods, /proxy/me, /proxy/capabilities, /proxy/tokens (list, delete), empty libraries. */
function fakeProxy({ access = true, held = [] as Held[] } = {}) {
  return vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const json = (status: number, body: unknown) => new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.pathname === '/connect/methods') return json(200, { token: true, access });
    const bearer = (new Headers(init.headers).get('Authorization') ?? '').replace(/^Bearer /, '');
    if (!held.some((h) => h.token === bearer)) return json(401, { error: { code: 'unauthorized', message: 'A valid member token is required.' } });
    if (url.pathname === '/proxy/me') return json(200, { id: 'm0123456789abcdef', name: 'Ada Lovelace' });
    if (url.pathname === '/proxy/capabilities') return json(200, { models: [] });
    if (url.pathname === '/proxy/tokens' && (init.method ?? 'GET') === 'GET') {
      return json(200, { tokens: held.map((h) => ({ id: h.id, label: h.label, createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null, current: h.token === bearer })) });
    }
    const del = /^\/proxy\/tokens\/(\w+)$/.exec(url.pathname);
    if (del && init.method === 'DELETE') {
      held.splice(held.findIndex((h) => h.id === del[1]), 1);
      return json(204, null);
    }
    if (url.pathname === '/api/v3') return json(200, { ResponseMetadata: { RequestId: 'r', Action: 'ListAssetGroups' }, Result: { Items: [], TotalCount: 0, PageNumber: 1, PageSize: 100 } });
    return json(404, { error: { code: 'not_found', message: 'no route' } });
  });
}

const realFetch = globalThis.fetch;
let launched: string[];

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
  fakeBrowser.reset();
  Object.assign(fakeBrowser.permissions, { request: vi.fn(async () => true), remove: vi.fn(async () => true) });
  launched = [];
  // The identity flow as the browser runs it: the proxy's /connect/access redirects to the extension with the token.
  Object.assign(fakeBrowser, {
    identity: {
      getRedirectURL: () => REDIRECT,
      launchWebAuthFlow: vi.fn(async ({ url }: { url: string }) => {
        launched.push(url);
        return `${REDIRECT}#token=${SIGNED_IN}`;
      }),
    },
  });
});

afterEach(() => {
  unmount();
  globalThis.fetch = realFetch;
});

async function openOptions() {
  mount(<App />);
  await vi.waitFor(() => byLabel('Proxy URL'));
}

function enterProxy(url: string) {
  const field = byLabel('Proxy URL');
  type(field, url);
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

describe('sign in with your team account', () => {
  it('is offered when the proxy signs members in, and stores the token the identity flow hands back', async () => {
    globalThis.fetch = fakeProxy({ held: [{ id: 't1', label: 'Chrome on Linux', token: SIGNED_IN }] });
    await openOptions();
    expect(text()).not.toContain('Sign in with your team account');
    enterProxy(PROXY);
    await vi.waitFor(() => expect(text()).toContain('Sign in with your team account'));
    click(button('Sign in with your team account'));
    await vi.waitFor(() => expect(text()).toContain('Connected as Ada Lovelace'));
    expect(launched).toEqual([`${PROXY}/connect/access?redirect=${encodeURIComponent(REDIRECT)}`]);
    expect(await getConnection()).toEqual({ proxyUrl: PROXY, token: SIGNED_IN, memberName: 'Ada Lovelace', needsReconnect: false });
  });

  it('is not offered when the proxy does not sign members in', async () => {
    const fetch = (globalThis.fetch = fakeProxy({ access: false }));
    await openOptions();
    enterProxy(PROXY);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(text()).not.toContain('Sign in with your team account');
  });

  it('reads only a well-formed token from the redirect URL it asked for', () => {
    expect(tokenFromRedirect(`${REDIRECT}#token=${SIGNED_IN}`, REDIRECT)).toBe(SIGNED_IN);
    expect(tokenFromRedirect(`https://evil.example/#token=${SIGNED_IN}`, REDIRECT)).toBeNull();
    expect(tokenFromRedirect(`${REDIRECT}#token=sk-123`, REDIRECT)).toBeNull();
    expect(tokenFromRedirect(REDIRECT, REDIRECT)).toBeNull();
  });
});

describe('your browsers', () => {
  it('lists the member\'s browsers with this one marked, and revokes another', async () => {
    const held = [
      { id: 't1', label: 'Chrome on macOS', token: TOKEN },
      { id: 't2', label: 'Old laptop', token: SIGNED_IN },
    ];
    const fetch = (globalThis.fetch = fakeProxy({ held }));
    await setConnection({ proxyUrl: PROXY, token: TOKEN, memberName: 'Ada Lovelace', needsReconnect: false });
    await openOptions();
    const details = document.querySelector('details')!;
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    await vi.waitFor(() => expect(text()).toContain('Old laptop'));
    expect(text()).toContain('This browser');
    expect(document.querySelector('[aria-label="Revoke Chrome on macOS"]')).toBeNull();
    click(document.querySelector<HTMLButtonElement>('[aria-label="Revoke Old laptop"]')!);
    await vi.waitFor(() => expect(text()).toContain('Old laptop can no longer use your account'));
    expect(held.map((h) => h.id)).toEqual(['t1']);
    expect(fetch.mock.calls.some(([input, init]) => String(input) === `${PROXY}/proxy/tokens/t2` && (init as RequestInit).method === 'DELETE')).toBe(true);
  });
});
