import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { ProxySettings } from '../../infra/settings/proxy-settings';

/**
 * Cloudflare Access in front of `/console` and `/admin/*`: with ACCESS_TEAM_DOMAIN and ACCESS_AUD
 * set, a request may prove who it is with the `Cf-Access-Jwt-Assertion` header Access adds. The
 * token is verified here (RS256 against the team's published keys, issuer, audience, expiry), never
 * trusted because Access is assumed to be in front. Member sign-in (`/connect/access`,
 * docs/identity.md) verifies its assertions here too, against its own application's audience
 * (MEMBER_ACCESS_AUD). Both refuse an assertion without an expiry.
 * @see https://developers.cloudflare.com/cloudflare-one/identity/authorization-cookie/validating-json/
 */

export const ACCESS_HEADER = 'cf-access-jwt-assertion';

/** The key set of a team domain, fetched and cached by jose; one per isolate and domain. */
let keys: { domain: string; set: JWTVerifyGetKey } | null = null;
function keySet(domain: string): JWTVerifyGetKey {
  if (!keys || keys.domain !== domain) keys = { domain, set: createRemoteJWKSet(new URL(`${domain}/cdn-cgi/access/certs`)) };
  return keys.set;
}

/** Whether Access is configured (both settings present). */
export const accessConfigured = (env: ProxySettings): boolean => Boolean(env.ACCESS_TEAM_DOMAIN && env.ACCESS_AUD);

/** Whether the admin token may sign in to the console (ADMIN_TOKEN_SIGNIN=off turns it off once Access is configured). */
export const tokenSigninAllowed = (env: ProxySettings): boolean => !(accessConfigured(env) && env.ADMIN_TOKEN_SIGNIN === 'off');

export type AccessIdentity = { ok: true; email: string } | { ok: false; reason: string };

/** Whether member sign-in with Access is set up (the team domain and the members' application's audience). */
export const memberAccessConfigured = (env: ProxySettings): boolean => Boolean(env.ACCESS_TEAM_DOMAIN && env.MEMBER_ACCESS_AUD);

/** The identity an assertion proves to the admin's application (ACCESS_AUD), or why it proves none. */
export async function verifyAccess(env: ProxySettings, assertion: string): Promise<AccessIdentity> {
  if (!accessConfigured(env)) return { ok: false, reason: 'Cloudflare Access is not configured' };
  return verifyAssertion(env.ACCESS_TEAM_DOMAIN!, assertion, env.ACCESS_AUD!);
}

/** The identity an assertion proves to the members' application (MEMBER_ACCESS_AUD). */
export async function verifyMemberAccess(env: ProxySettings, assertion: string): Promise<AccessIdentity> {
  if (!memberAccessConfigured(env)) return { ok: false, reason: 'member sign-in with Cloudflare Access is not configured' };
  return verifyAssertion(env.ACCESS_TEAM_DOMAIN!, assertion, env.MEMBER_ACCESS_AUD!);
}

/**
 * The one check of an assertion, for the console and for members alike: RS256 with the team's keys,
 * issuer the team domain, the audience, an `exp` at all (Access always sets one; a token without it
 * would be good forever) and not past it.
 */
async function verifyAssertion(teamDomain: string, assertion: string, audience: string): Promise<AccessIdentity> {
  if (assertion.length > 8192) return { ok: false, reason: 'the assertion is too long' };
  const domain = teamDomain.replace(/\/+$/, '');
  try {
    const { payload } = await jwtVerify(assertion, keySet(domain), { issuer: domain, audience, algorithms: ['RS256'], requiredClaims: ['exp'] });
    const email = typeof payload.email === 'string' && payload.email ? payload.email : null;
    return email ? { ok: true, email: email.slice(0, 254) } : { ok: false, reason: 'the assertion names no email' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.name : 'invalid assertion' };
  }
}
