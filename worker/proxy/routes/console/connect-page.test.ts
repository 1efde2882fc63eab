import { describe, expect, it } from 'vitest';
import { appFetch } from '../../testing/proxy-test-client';

/** `GET /connect` (docs/console.md): the page a connect link lands on, with the console's strict headers. */

describe('the connect page', () => {
  it('is never sniffed, framed or cached', async () => {
    const r = await appFetch('/connect');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});
