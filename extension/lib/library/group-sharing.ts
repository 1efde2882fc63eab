import type { GroupSharing, GroupType, ShareRole, SharingChange } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import { type Problem, problemOf } from '@/lib/proxy/failure-message';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { getSharing, listTeam, putSharing } from '@/lib/proxy/sharing-client';
import '@/lib/i18n/team.en';

/**
 * The share dialog as data: a group's sharing as the proxy has it (GET), the team to choose from
 * (`GET /proxy/team`), what the member chose, and the PUT body that says exactly that. A member's
 * entry overrides the team role; `team` (follow the team's role) is no entry, or, for a member who
 * has one, an entry equal to the team's role (the proxy keeps entries: none can be removed).
 */

/** A member's choice in the dialog: a role of their own, or the team's. */
export type MemberChoice = ShareRole | 'team';

export interface SharingDraft {
  team: ShareRole;
  /** Member id -> choice, for every member of the team listed. */
  members: Record<string, MemberChoice>;
}

export interface SharingSetup {
  sharing: GroupSharing;
  team: { id: string; name: string }[];
  draft: SharingDraft;
}

/** The roles a group can be shared with: a real-person group as viewer only. */
export const rolesFor = (type: GroupType): ShareRole[] => (type === 'LivenessFace' ? ['none', 'viewer'] : ['none', 'viewer', 'editor']);

/** The dialog's starting point: the current team role, and each member's own entry or the team's. */
export function draftOf(sharing: GroupSharing, team: { id: string }[]): SharingDraft {
  return { team: sharing.team, members: Object.fromEntries(team.map((m) => [m.id, sharing.members[m.id] ?? 'team'])) };
}

/**
 * The PUT body for a draft: the team role, and the member entries that change (a new role, or back
 * to the team's role for a member whose entry differs from it). Members whose entry stays are left
 * out, so that an entry never appears where the member chose none.
 */
export function sharingChange(current: GroupSharing, draft: SharingDraft): SharingChange {
  const members: Record<string, ShareRole> = {};
  for (const [id, choice] of Object.entries(draft.members)) {
    const entry = current.members[id];
    const target = choice === 'team' ? (entry !== undefined && entry !== draft.team ? draft.team : undefined) : choice;
    if (target !== undefined && target !== entry) members[id] = target;
  }
  return Object.keys(members).length ? { team: draft.team, members } : { team: draft.team };
}

/** Both reads at once: the sharing and the team. */
export async function loadSharing(client: ProxyClient, groupId: string, signal?: AbortSignal): Promise<SharingSetup> {
  const [sharing, team] = await Promise.all([getSharing(client, groupId, signal), listTeam(client, signal)]);
  return { sharing, team, draft: draftOf(sharing, team) };
}

/** The proxy's refusals of a sharing call, in the member's words (a 400 names the field as the proxy does). */
export async function sharingProblem(error: unknown): Promise<Problem> {
  if (error instanceof ApiError && error.failure.kind === 'rejected') {
    if (error.failure.code === 'not_owner') return { message: t('share.notOwner') };
    if (error.failure.code === 'group_not_found') return { message: t('share.notFound') };
  }
  return problemOf(error);
}

/** Saves a draft (PUT): the sharing as it now is, or what went wrong. */
export async function saveSharing(client: ProxyClient, current: GroupSharing, draft: SharingDraft): Promise<{ ok: true; value: GroupSharing } | { ok: false; problem: Problem }> {
  try {
    return { ok: true, value: await putSharing(client, current.groupId, sharingChange(current, draft)) };
  } catch (error) {
    return { ok: false, problem: await sharingProblem(error) };
  }
}
