import { clip, fromMicros, type SharingChange } from '../../../../shared';
import { jsonResponse, proxyError, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { owns } from '../members/owned';
import { groupAssets, groupFromService } from './owner-lookups';
import type { AuditPort, RosterPort } from './sharing-ports';
import { taskRequest } from './task-request';

/**
 * The member's sharing and gallery requests (`/proxy/groups/:id/sharing`, `/proxy/shared`,
 * `/proxy/gallery`), handled in the member's own object: only the owner of a group changes its
 * sharing; the team library keeps what grantees are checked against (docs/team-library.md).
 */

export type SharingCall =
  | { kind: 'get'; groupId: string }
  | { kind: 'put'; groupId: string; change: SharingChange }
  | { kind: 'shared' }
  | { kind: 'publish'; taskId: string; origin: string }
  | { kind: 'unpublish'; taskId: string };

/** What these requests need beyond the member's context: its name, the directory, the audit log. */
export interface SharingDeps {
  memberName: string;
  roster(): RosterPort;
  audit(): AuditPort;
}

const groupNotFound = (groupId: string) => proxyError(404, 'group_not_found', `No group ${clip(groupId)} exists for you.`, 'groupId');
const invalid = (param: string, why: string) => proxyError(400, 'invalid_parameter', `${param}: ${why}`, param);

/** Audit entries are written after the change; a failure to write one does not undo it. */
const audited = (deps: SharingDeps, actor: string, action: string, target: string, detail: Record<string, unknown>) =>
  deps.audit().audit(actor, action, target, detail).catch(() => undefined);

export async function handleSharing(m: MemberContext, deps: SharingDeps, call: SharingCall): Promise<ProxyResponse> {
  switch (call.kind) {
    case 'get':
      return getSharing(m, deps, call.groupId);
    case 'put':
      return putSharing(m, deps, call.groupId, call.change);
    case 'shared':
      return jsonResponse(200, { groups: await m.team().sharedWith(m.memberId) });
    case 'publish':
      return publish(m, deps, call.taskId, call.origin);
    case 'unpublish':
      return unpublish(m, deps, call.taskId);
  }
}

async function getSharing(m: MemberContext, deps: SharingDeps, groupId: string): Promise<ProxyResponse> {
  const view = await m.team().viewSharing(groupId, m.memberId);
  if (view) return jsonResponse(200, view);
  if (!owns(m.sql, 'group', groupId)) return groupNotFound(groupId);
  // The owner's group, never shared: its name from the service.
  const group = await groupFromService(m, groupId);
  if (!group.ok) return group.response;
  return jsonResponse(200, { groupId, name: group.value.name, owner: { id: m.memberId, name: deps.memberName }, team: 'none', members: {} });
}

async function putSharing(m: MemberContext, deps: SharingDeps, groupId: string, change: SharingChange): Promise<ProxyResponse> {
  if (!owns(m.sql, 'group', groupId)) {
    const access = await m.team().groupAccess(m.memberId, groupId);
    return access === 'viewer' || access === 'editor'
      ? proxyError(403, 'not_owner', `Only the owner of group ${clip(groupId)} may change its sharing.`, 'groupId')
      : groupNotFound(groupId);
  }
  const named = Object.entries(change.members ?? {});
  if (named.length) {
    const roster = new Map((await deps.roster().list()).map((p) => [p.id, p]));
    for (const [id, role] of named) {
      const param = `members.${clip(id)}`;
      if (id === m.memberId) return invalid(param, "is the group's owner");
      const profile = roster.get(id);
      if (!profile) return invalid(param, 'is not a member of the team');
      if (profile.revoked && role !== 'none') return invalid(param, 'is a revoked member');
    }
  }
  const record = await m.team().groupRecord(groupId);
  let group = record ? { name: record.name, groupType: record.groupType } : null;
  if (!group) {
    const found = await groupFromService(m, groupId);
    if (!found.ok) return found.response;
    group = found.value;
  }
  if (group.groupType === 'LivenessFace') {
    if (change.team === 'editor') return invalid('team', 'a real-person group can be shared as viewer only');
    const editor = named.find(([, role]) => role === 'editor');
    if (editor) return invalid(`members.${clip(editor[0])}`, 'a real-person group can be shared as viewer only');
  }
  let assets: string[] | undefined;
  if (!record) {
    const learnt = await groupAssets(m, groupId);
    if (!learnt.ok) return learnt.response;
    assets = learnt.value;
  }
  const view = await m.team().setSharing({ groupId, owner: { id: m.memberId, name: deps.memberName }, ...group, team: change.team, members: change.members, assets });
  m.sql.exec('INSERT OR IGNORE INTO shared_out (group_id) VALUES (?)', groupId);
  await audited(deps, m.memberId, 'sharing.set', groupId, { ...(change.team ? { team: change.team } : {}), ...(change.members ? { members: change.members } : {}) });
  return jsonResponse(200, view);
}

type TaskRow = {
  status: string;
  body: string;
  cost: number;
  currency: string;
  request: string | null;
  keep_state: string | null;
  kept_until: number | null;
};

async function publish(m: MemberContext, deps: SharingDeps, taskId: string, origin: string): Promise<ProxyResponse> {
  if (!owns(m.sql, 'task', taskId)) return proxyError(404, 'task_not_found', `No task ${clip(taskId)} exists for you.`, 'taskId');
  const row = m.sql.exec<TaskRow>('SELECT status, body, cost, currency, request, keep_state, kept_until FROM tasks WHERE id = ?', taskId).toArray()[0];
  if (row?.status !== 'completed') return proxyError(409, 'task_not_completed', `Task ${clip(taskId)} has not completed; only a finished video can be published.`, 'taskId');
  const request = taskRequest(row.request);
  const model = (taskRequest(row.body)?.model ?? request?.model ?? '') as string;
  const entry = {
    taskId,
    member: { id: m.memberId, name: deps.memberName },
    model: String(model),
    request,
    cost: fromMicros(row.cost),
    currency: row.currency,
    keptUntil: row.keep_state === 'kept' ? row.kept_until : null,
  };
  const { item, created } = await m.team().publish(entry, origin);
  if (created) await audited(deps, m.memberId, 'gallery.publish', taskId, { model: entry.model });
  return jsonResponse(created ? 201 : 200, item);
}

async function unpublish(m: MemberContext, deps: SharingDeps, taskId: string): Promise<ProxyResponse> {
  const outcome = await m.team().unpublish(taskId, m.memberId);
  if (outcome === 'not_found') return proxyError(404, 'gallery_item_not_found', `Task ${clip(taskId)} is not in the gallery.`, 'taskId');
  if (outcome === 'forbidden') return proxyError(403, 'not_publisher', 'Only the member who published a video (or the admin) may remove it from the gallery.', 'taskId');
  await audited(deps, m.memberId, 'gallery.remove', taskId, {});
  return { status: 204, body: '', headers: {} };
}
