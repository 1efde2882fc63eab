import { afterAll, beforeAll, expect, vi } from 'vitest';
import { onSeenFull, proxyEnv, seen } from './proxy-test-client';

/**
 * Setup file of the proxy project: every log line written and every response seen in a test
 * file is checked, after the file, for the proxy's secrets and for member tokens; the responses
 * also whenever those held pass 32 MB (proxy-test-client's recordSeen), so a long run stays small.
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
const offending = (entries: readonly string[], needle: string | RegExp) => entries.find((e) => (typeof needle === 'string' ? e.includes(needle) : needle.test(e)));

/** The proxy's secrets, and the partner tokens observed so far. */
const secrets = () => [proxyEnv.SECRET_ACCESS_KEY, proxyEnv.VIDEO_API_KEY, proxyEnv.ADMIN_TOKEN, proxyEnv.MEDIA_URL_SECRET!, proxyEnv.ACCESS_KEY_SECRET!, ...partnerTokens];

// One pass per secret over all the text at once: a fuzz run leaves hundreds of thousands of entries.
afterAll(() => {
  const logText = logs.join('\n');
  for (const secret of [...secrets(), ...memberTokens]) {
    if (logText.includes(secret)) expect(offending(logs, secret), 'a log line holds a secret').toBeUndefined();
  }
  if (/abk_m[0-9a-f]{16}_/.test(logText)) expect(offending(logs, /abk_m[0-9a-f]{16}_/), 'a log line holds a member token').toBeUndefined();
  checkAnswers(seen);
}, 120_000);

/** No answer holds a secret of the proxy's or a partner token. */
function checkAnswers(entries: readonly string[]): void {
  const text = entries.join('\n');
  for (const secret of secrets()) {
    if (text.includes(secret)) expect(offending(entries, secret), 'a response holds a secret').toBeUndefined();
  }
}
// A long run (fuzzing) checks its answers as they pile up, and lets them go.
onSeenFull(checkAnswers);
