import { afterAll, beforeAll, expect, vi } from 'vitest';
import { proxyEnv, seen } from './proxy-test-client';

/**
 * Setup file of the proxy project: every log line written and every response seen in a test
 * file is checked, after the file, for the proxy's secrets and for member tokens.
 */

const logs: string[] = [];
/** Partner tokens of the service that tests observed server-side; they must never reach a member. */
export const partnerTokens: string[] = [];
/** Member tokens that tests created: they may appear in the admin responses that issue them, nowhere else. */
export const memberTokens: string[] = [];

beforeAll(() => {
  for (const method of ['log', 'info', 'warn', 'error'] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
      original(...(args as []));
    });
  }
});

afterAll(() => {
  const secrets = [proxyEnv.SECRET_ACCESS_KEY, proxyEnv.VIDEO_API_KEY, proxyEnv.ADMIN_TOKEN, ...partnerTokens];
  for (const line of logs) {
    for (const secret of [...secrets, ...memberTokens]) expect(line, 'a log line holds a secret').not.toContain(secret);
    expect(line).not.toMatch(/abk_m[0-9a-f]{16}_/);
  }
  for (const response of seen) {
    for (const secret of secrets) expect(response, 'a response holds a secret').not.toContain(secret);
  }
});
