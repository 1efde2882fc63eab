import VendorSigner from '@volcengine/openapi/lib/base/sign';
import { ORIGIN, proxyFetch, signLibraryCalls, type LibrarySigner } from './proxy-test-client';

/**
 * The service's own Node SDK signer (`@volcengine/openapi`, unmodified) pointed at the proxy with a
 * member's access key (docs/proxy-api.md, "Using the vendor's SDK with the proxy"), and the test
 * client's switch between the two ways a member calls `/api/v3` (bearer token, signed).
 */

export interface AccessKey {
  id: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Every secret access key the tests were given: the leak checks look for them. */
export const issuedSecrets: string[] = [];

/** `POST /proxy/access-keys` with the member's token: the key, or the answer when refused. */
export async function mintAccessKey(token: string, label = 'script'): Promise<AccessKey | Response> {
  const response = await proxyFetch('/proxy/access-keys', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ label }) });
  if (response.status !== 201) return response;
  const key = (await response.json()) as AccessKey;
  issuedSecrets.push(key.secretAccessKey);
  return key;
}

/**
 * Signs as the vendor's Service builds a request: `Host`, `Content-Type`, the body; the signer adds
 * X-Date, X-Content-Sha256 and Authorization. Its debug log (printed by workerd whatever NODE_DEBUG
 * says) is kept out of the output; the signer is synchronous, so nothing else logs meanwhile.
 */
export function vendorSign(key: Pick<AccessKey, 'accessKeyId' | 'secretAccessKey'>, path: string, headers: Record<string, string>, body: string, date?: Date): void {
  const url = new URL(path, ORIGIN);
  const request = {
    region: 'cn-beijing',
    method: 'POST',
    pathname: url.pathname,
    params: Object.fromEntries(url.searchParams),
    headers: { Host: url.host, ...headers },
    body,
  };
  // Restored as they were, descriptors and all: the leak guard's spies are among them.
  const names = ['log', 'debug', 'error'] as const;
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(console, name));
  for (const name of names) Object.defineProperty(console, name, { value: () => undefined, configurable: true, writable: true });
  try {
    new VendorSigner(request, 'ark').addAuthorization({ accessKeyId: key.accessKeyId, secretKey: key.secretAccessKey }, date);
  } finally {
    names.forEach((name, i) => (saved[i] ? Object.defineProperty(console, name, saved[i]) : delete (console as unknown as Record<string, unknown>)[name]));
  }
  Object.assign(headers, request.headers);
}

/** Keys minted per member token, so each member signs with one key across a file. */
const keys = new Map<string, AccessKey>();

/** The member's key; a token that can mint none (revoked, rotated away) signs with a key of its member's form that does not exist. */
export async function keyOf(token: string): Promise<AccessKey> {
  let key = keys.get(token);
  if (!key) {
    const minted = await mintAccessKey(token, 'test client');
    const memberId = /^abk_(m[0-9a-f]{16})_/.exec(token)?.[1] ?? 'm0000000000000000';
    key = minted instanceof Response ? { id: 'none', accessKeyId: `AKAB${memberId}K0000000000000000`, secretAccessKey: 'abks_not-a-key' } : minted;
    keys.set(token, key);
  }
  return key;
}

const SIGNED: LibrarySigner = {
  async sign(token, path, headers, body) {
    vendorSign(await keyOf(token), path, headers, body);
  },
  unauthorizedCode: 'InvalidAccessKey',
};

export type AuthKind = 'bearer' | 'signed';
export const AUTH_KINDS: AuthKind[] = ['bearer', 'signed'];

/** Which path `api` takes from now on (testing/proxy-test-client.ts). */
export function useAuth(kind: AuthKind): void {
  signLibraryCalls(kind === 'signed' ? SIGNED : null);
}

/** Mints the member's key now when calls are signed: a member revoked later then holds a real key that was revoked. */
export async function prepareAuth(kind: AuthKind, token: string): Promise<void> {
  if (kind === 'signed') await keyOf(token);
}
