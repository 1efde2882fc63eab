import { canAddTo } from '@/lib/library/group-access';
import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * Which group files go to, most specific first: the group row they were dropped on; the group that
 * is open; the group last saved to (any save: the menu, the keyboard, files), if it still exists.
 * Null: nothing says which, the member is asked. A real-person group takes no files (its assets come
 * from the phone's capture), and a group shared with the member as a viewer takes none either: neither
 * is ever chosen, nor offered.
 */
export function dropGroup(where: { row: string | null; open: string | null; lastUsed: string | null }, groups: readonly GroupRecord[]): string | null {
  const takes = (id: string | null) => (id && groups.some((g) => g.id === id && canAddTo(g)) ? id : null);
  return takes(where.row) ?? takes(where.open) ?? takes(where.lastUsed);
}

/** The groups files can be added to (for the picker). */
export const fileGroups = (groups: readonly GroupRecord[]): GroupRecord[] => groups.filter(canAddTo);
