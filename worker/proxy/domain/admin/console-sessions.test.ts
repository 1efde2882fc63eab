import { describe, expect, it } from 'vitest';
import { appFetch, ORIGIN, proxyEnv } from '../../testing/proxy-test-client';
import { SIGNIN_FAILURES_MAX, SOURCE_MAX } from './console-sessions';

/** The console's sign-in throttle (docs/console.md): failures are counted per source, however long the source. */

const signIn = (token: string, source: string) =>
  appFetch('/console/signin', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN, 'CF-Connecting-IP': source },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });

describe('sign-in throttle', () => {
  it.each([
    ['a short source', ''],
    [`a source longer than ${SOURCE_MAX} characters`, `:${'f'.repeat(120)}`],
  ])('engages for %s after the allowed failures', async (_what, tail) => {
    const source = `${crypto.randomUUID()}${tail}`;
    for (let i = 0; i < SIGNIN_FAILURES_MAX; i++) expect((await signIn(`wrong-${i}`, source)).status).toBe(401);
    expect((await signIn(proxyEnv.ADMIN_TOKEN, source)).status).toBe(429);
  });
});
