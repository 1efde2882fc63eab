import { describe, expect, it } from 'vitest';
import { LibrarySearch, RANK_LIMIT } from '@/lib/library/library-search';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const DAY = Date.UTC(2026, 10, 26, 9, 30);

function asset(over: Partial<AssetRecord> & { localId: string }): AssetRecord {
  return { groupId: 'mood', name: over.localId, url: `https://cdn.example.com/${over.localId}.png`, type: 'Image', status: 'Active', idempotencyKey: '', notified: true, createdAt: DAY, updatedAt: DAY, ...over };
}

const groups = [
  { id: 'mood', name: 'Moodboard' },
  { id: 'shared', name: 'Team references' },
];

const library = [
  asset({ localId: 'fox', name: 'Red fox in snow', source: { how: 'link', capturedAt: DAY, pageUrl: 'https://wildlife.example.org/foxes', pageTitle: 'Foxes of the north' } }),
  asset({ localId: 'clip', name: 'Ocean waves', type: 'Video', status: 'Processing', groupId: 'shared' }),
  asset({ localId: 'song', name: 'Theme', type: 'Audio', status: 'Failed', createdAt: Date.UTC(2025, 0, 2) }),
  asset({ localId: 'sending', name: 'Queued kite', status: 'Queued' }),
];

function indexed() {
  const search = new LibrarySearch();
  search.sync(library, groups);
  return search;
}

describe('LibrarySearch finds each field', () => {
  const search = indexed();
  it.each([
    ['name', 'fox', 'fox'],
    ['type', 'video', 'clip'],
    ['status', 'failed', 'song'],
    ['group name (a shared group)', 'team references', 'clip'],
    ['source page title', 'north', 'fox'],
    ['source page address', 'wildlife.example', 'fox'],
    ['capture date', '2025-01-02', 'song'],
  ])('by %s', (_field, text, id) => {
    expect(search.search({ text })).toContain(id);
  });

  it('matches a word by its beginning as it is typed, and a misspelt longer word', () => {
    expect(search.search({ text: 'oce' })).toEqual(['clip']);
    expect(search.search({ text: 'occean' })).toEqual(['clip']);
  });

  it('needs every word of the query', () => {
    expect(search.search({ text: 'fox snow' })).toEqual(['fox']);
    expect(search.search({ text: 'fox ocean' })).toEqual([]);
  });
});

describe('LibrarySearch filters', () => {
  const search = indexed();
  it('by type, status and group, with or without text', () => {
    expect(search.search({ text: '', type: 'Audio' })).toEqual(['song']);
    expect(search.search({ text: '', status: 'Failed' })).toEqual(['song']);
    expect(search.search({ text: '', groupId: 'shared' })).toEqual(['clip']);
    expect(search.search({ text: 'moodboard', type: 'Image' }).sort()).toEqual(['fox', 'sending']);
  });

  it('counts a record still being sent as Processing', () => {
    expect(search.search({ text: '', status: 'Processing' }).sort()).toEqual(['clip', 'sending']);
  });

  it('keeps the store order for an empty query', () => {
    expect(search.search({ text: '' })).toEqual(['fox', 'clip', 'song', 'sending']);
  });
});

describe('LibrarySearch follows the store incrementally', () => {
  it('re-indexes only what changed: a rename, a group rename, a removal', () => {
    const search = indexed();
    expect(search.sync(library, groups)).toEqual({ changed: 0, removed: 0 });

    const renamed = library.map((a) => (a.localId === 'fox' ? { ...a, name: 'Arctic vixen' } : a));
    expect(search.sync(renamed, groups)).toEqual({ changed: 1, removed: 0 });
    expect(search.search({ text: 'vixen' })).toEqual(['fox']);
    expect(search.search({ text: 'snow' })).toEqual([]);

    expect(search.sync(renamed, [{ id: 'mood', name: 'Moodboard' }, { id: 'shared', name: 'Seascapes' }])).toEqual({ changed: 1, removed: 0 });
    expect(search.search({ text: 'seascapes' })).toEqual(['clip']);

    expect(search.sync(renamed.filter((a) => a.localId !== 'clip'), groups)).toMatchObject({ removed: 1 });
    expect(search.search({ text: 'ocean' })).toEqual([]);
    expect(search.size).toBe(3);
  });
});

describe('LibrarySearch ranks only an answer of at most RANK_LIMIT records', () => {
  // Half the records carry "harbor" in their name (boosted), half only in their page title; newest first.
  const many = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      asset({ localId: `r${i}`, name: i % 2 ? `Harbor ${i}` : `Pier ${i}`, source: { how: 'link', capturedAt: DAY, pageUrl: `https://e.example/${i}`, pageTitle: i % 2 ? 'Boats' : 'Harbor views' } }),
    );

  it('best first within the limit', () => {
    const search = new LibrarySearch();
    search.sync(many(10), groups);
    const found = search.search({ text: 'harbor' });
    expect(found).toHaveLength(10);
    // The name matches (odd) before the page title matches (even).
    expect(found.slice(0, 5).every((id) => Number(id.slice(1)) % 2 === 1)).toBe(true);
  });

  it("beyond it, in the store's order, the same records", () => {
    const records = many(RANK_LIMIT + 2);
    const search = new LibrarySearch();
    search.sync(records, groups);
    expect(search.search({ text: 'harbor' })).toEqual(records.map((r) => r.localId));
    // Narrowed by a second word to a few: ranked again.
    expect(search.search({ text: 'harbor 7' })).toEqual(['r7']);
  });
});
