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

/** The first entry holding `needle`, for the failure message; the search itself runs over one joined text. */
const offending = (entries: string[], needle: string | RegExp) => entries.find((e) => (typeof needle === 'string' ? e.includes(needle) : needle.test(e)));

// One pass per secret over all the text at once: a fuzz run leaves hundreds of thousands of entries.
afterAll(() => {
  const secrets = [proxyEnv.SECRET_ACCESS_KEY, proxyEnv.VIDEO_API_KEY, proxyEnv.ADMIN_TOKEN, proxyEnv.MEDIA_URL_SECRET!, ...partnerTokens];
  const logText = logs.join('\n');
  for (const secret of [...secrets, ...memberTokens]) {
    if (logText.includes(secret)) expect(offending(logs, secret), 'a log line holds a secret').toBeUndefined();
  }
  if (/abk_m[0-9a-f]{16}_/.test(logText)) expect(offending(logs, /abk_m[0-9a-f]{16}_/), 'a log line holds a member token').toBeUndefined();
  const seenText = seen.join('\n');
  for (const secret of secrets) {
    if (seenText.includes(secret)) expect(offending(seen, secret), 'a response holds a secret').toBeUndefined();
  }
}, 120_000);
