import { describe, expect, it } from 'vitest';
import { filterRecords, searchText, SEARCH_QUERY_MAX } from '@/lib/library/library-filter';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const rec = (localId: string, groupId: string, type: string, status: string) => ({ localId, groupId, type, status }) as unknown as AssetRecord;
const assets = [rec('a', 'g1', 'Image', 'Active'), rec('b', 'g1', 'Video', 'Queued'), rec('c', 'g2', 'Image', 'Failed'), rec('d', 'g2', 'Image', 'Processing')];
const ids = (q: Parameters<typeof filterRecords>[1]) => filterRecords(assets, q).map((a) => a.localId);

describe('library filters (no text index needed)', () => {
  it('keeps the store order and filters by group, type and status', () => {
    expect(ids({ text: '' })).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ text: '', groupId: 'g2' })).toEqual(['c', 'd']);
    expect(ids({ text: '', type: 'Image' })).toEqual(['a', 'c', 'd']);
    expect(ids({ text: '', type: 'all', status: 'Failed' })).toEqual(['c']);
  });

  it('counts records still being sent (Queued) as Processing, as the chips say', () => {
    expect(ids({ text: '', status: 'Processing' })).toEqual(['b', 'd']);
  });

  it('reads a bounded, trimmed text', () => {
    expect(searchText({ text: '  fox  ' })).toBe('fox');
    expect(searchText({ text: 'x'.repeat(SEARCH_QUERY_MAX + 50) })).toHaveLength(SEARCH_QUERY_MAX);
  });
});
