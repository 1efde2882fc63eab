import { describe, expect, it } from 'vitest';
import { dropGroup, fileGroups } from '@/lib/library/drop-group';
import type { GroupRecord } from '@/lib/storage/records/group-record';

const group = (id: string, type: GroupRecord['type'] = 'AIGC') => ({ id, name: id, type }) as GroupRecord;
const groups = [group('row'), group('open'), group('last'), group('face', 'LivenessFace')];

describe('which group dropped files go to', () => {
  it('the row dropped on, else the open group, else the last used one', () => {
    expect(dropGroup({ row: 'row', open: 'open', lastUsed: 'last' }, groups)).toBe('row');
    expect(dropGroup({ row: null, open: 'open', lastUsed: 'last' }, groups)).toBe('open');
    expect(dropGroup({ row: null, open: null, lastUsed: 'last' }, groups)).toBe('last');
  });

  it('asks (null) when nothing says, or the last used group is gone; never a real-person group', () => {
    expect(dropGroup({ row: null, open: null, lastUsed: null }, groups)).toBeNull();
    expect(dropGroup({ row: null, open: null, lastUsed: 'deleted' }, groups)).toBeNull();
    expect(dropGroup({ row: null, open: 'face', lastUsed: null }, groups)).toBeNull();
    expect(fileGroups(groups).map((g) => g.id)).toEqual(['row', 'open', 'last']);
  });
});
