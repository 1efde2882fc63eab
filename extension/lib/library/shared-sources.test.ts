import { describe, expect, it, vi } from 'vitest';
import { sharedSources } from '@/lib/library/shared-sources';
import { isWebAddress, sourceLines } from '@/lib/library/source-view';
import type { AssetSource } from '@/lib/storage/records/asset-source';

const client = { send: vi.fn(), proxyUrl: 'https://proxy.example' };
const source: AssetSource = { how: 'link', capturedAt: 1, pageUrl: 'https://example.com/', pageTitle: 'Example' };

describe('sharedSources', () => {
  it('asks for the ids requested in the same turn in one call, and answers the next requests from its cache', async () => {
    const lookup = vi.fn(async (_c: unknown, ids: readonly string[]) => new Map(ids.filter((id) => id === 'a').map((id) => [id, source])));
    const sources = sharedSources(lookup);
    const [a, b] = await Promise.all([sources.get(client, 'a'), sources.get(client, 'b')]);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup.mock.calls[0]![1]).toEqual(['a', 'b']);
    expect([a, b]).toEqual([source, null]);
    expect(await sources.get(client, 'b')).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('does not cache a failed lookup', async () => {
    const lookup = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(new Map([['a', source]]));
    const sources = sharedSources(lookup);
    expect(await sources.get(client, 'a')).toBeNull();
    expect(await sources.get(client, 'a')).toEqual(source);
  });
});

describe('sourceLines', () => {
  it('links only an http(s) page, showing its title', () => {
    expect(sourceLines(source).page).toEqual({ text: 'Example', href: 'https://example.com/' });
    expect(sourceLines({ ...source, pageUrl: 'javascript:alert(1)', pageTitle: undefined }).page).toEqual({ text: 'javascript:alert(1)' });
    expect(isWebAddress('data:text/html,x')).toBe(false);
  });
});
