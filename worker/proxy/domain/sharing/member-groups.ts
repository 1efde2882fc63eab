import type { MemberGroupList } from '../../../../shared';
import type { MemberContext } from '../members/member-context';
import { ownedIds } from '../members/owned';
import { groupNames } from './owner-lookups';

/** A member's groups and their sharing, for the console's member page (`GET /admin/members/:id/groups`). */
export async function memberGroups(m: MemberContext): Promise<MemberGroupList> {
  const ids = ownedIds(m.sql, 'group');
  const sharing = new Map((await m.team().sharingOf(ids)).map((s) => [s.groupId, s]));
  const unnamed = ids.filter((id) => !sharing.has(id));
  const names = unnamed.length ? await groupNames(m, unnamed) : new Map<string, string>();
  return {
    groups: ids.map((id) => {
      const shared = sharing.get(id);
      return { groupId: id, name: shared?.name ?? names.get(id) ?? null, team: shared?.team ?? 'none', members: shared?.members ?? {} };
    }),
  };
}
