import { type GroupSharing, groupSharingSchema, type SharedGroup, sharedGroupListSchema, type SharingChange, teamMemberListSchema } from '@@/shared';
import { callJson, isMissingRoute } from '@/lib/proxy/proxy-json';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * The team library's sharing routes (docs/team-library.md on the proxy's side): a group's sharing,
 * the groups others share with the member, and whom to share with. Every answer is read with the
 * shared schemas (`shared/team-library.ts`).
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;
const sharingPath = (groupId: string) => `/proxy/groups/${encodeURIComponent(groupId)}/sharing`;

/** `GET /proxy/groups/:groupId/sharing`: who may use the group (its owner, or a member holding a role). */
export const getSharing = (client: Client, groupId: string, signal?: AbortSignal): Promise<GroupSharing> =>
  callJson(client, { method: 'GET', path: sharingPath(groupId), schema: groupSharingSchema, signal });

/** `PUT /proxy/groups/:groupId/sharing` (the owner only): answers the sharing after the change. */
export const putSharing = (client: Client, groupId: string, change: SharingChange): Promise<GroupSharing> =>
  callJson(client, { method: 'PUT', path: sharingPath(groupId), body: change, schema: groupSharingSchema });

/**
 * `GET /proxy/shared`: the groups other members share with the member. A proxy from before the
 * team library (404 on the route) shares nothing: an empty list.
 */
export async function listShared(client: Client): Promise<SharedGroup[]> {
  try {
    return (await callJson(client, { method: 'GET', path: '/proxy/shared', schema: sharedGroupListSchema })).groups;
  } catch (error) {
    if (isMissingRoute(error)) return [];
    throw error;
  }
}

/** `GET /proxy/team`: the team's active members other than the caller (whom to share with). */
export const listTeam = async (client: Client, signal?: AbortSignal): Promise<{ id: string; name: string }[]> =>
  (await callJson(client, { method: 'GET', path: '/proxy/team', schema: teamMemberListSchema, signal })).members;
