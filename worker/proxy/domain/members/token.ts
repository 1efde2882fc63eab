/**
 * Member tokens: `abk_<memberId>_<secret>`. The member id routes the request to that member's
 * Durable Object without any global lookup; only the SHA-256 of the whole token is stored.
 */

import { randomHex } from '../../../../shared';
import { sha256Hex } from '../../infra/signing/sha256';

const TOKEN = /^abk_(m[0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export const newMemberId = (): string => `m${randomHex(8)}`;

/** A fresh token for a member: 256 random bits. */
export const newToken = (memberId: string): string => `abk_${memberId}_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;

/** The member id a token claims, or null when it is not of our form. */
export function tokenMemberId(token: string): string | null {
  return TOKEN.exec(token)?.[1] ?? null;
}

/** The stored form of a token: its SHA-256 as hex (in JS: on every request, cheaper than a WebCrypto call in workerd). */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** The bearer token of an Authorization header, or null. */
export const bearerToken = (header: string | null | undefined): string | null => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? null;
