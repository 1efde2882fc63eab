import type { GroupRecord } from '@/lib/storage/records/group-record';

/**
 * What the member may do with a group, by their role on it (the proxy's rules, docs/team-library.md):
 * the one place every view and the context menu ask. An own group (no role recorded: every record
 * from before the team library) is the owner's.
 */

export type Access = NonNullable<GroupRecord['role']>;

export const accessOf = (group: Pick<GroupRecord, 'role'>): Access => group.role ?? 'owner';

/** Another member's group, shared with this one. */
export const isShared = (group: Pick<GroupRecord, 'role'>): boolean => accessOf(group) !== 'owner';

/** Renaming and deleting its assets, renaming the group: the owner and editors. */
export const canEditAssets = (group: Pick<GroupRecord, 'role'>): boolean => accessOf(group) !== 'viewer';

/**
 * Adding to the group (files, captures, the context menu): the owner and editors, and only to a
 * virtual group (a real-person group's assets come from the phone).
 */
export const canAddTo = (group: Pick<GroupRecord, 'role' | 'type'>): boolean => group.type !== 'LivenessFace' && canEditAssets(group);

/** Deleting the group and changing its sharing: the owner only. */
export const canManage = (group: Pick<GroupRecord, 'role'>): boolean => accessOf(group) === 'owner';
