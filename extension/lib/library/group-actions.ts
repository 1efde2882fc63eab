import { check, librarySchemas, LIMITS } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { ApiError, isGone } from '@/lib/proxy/api-failure';
import { type ActionResult, type Problem, problemOf, type Wording } from '@/lib/proxy/failure-message';
import { keyForCreate, settleCreate } from '@/lib/proxy/idempotency-keys';
import { listAll, OLDEST_FIRST } from '@/lib/proxy/list-all-pages';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { listShared } from '@/lib/proxy/sharing-client';
import { retryWhileInProgress } from '@/lib/proxy/retry-in-progress';
import { groupStore } from '@/lib/storage/group-store';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import { announceChange } from '@/lib/storage/store-changes';

/** The fields of the group form. */
export type GroupField = 'name' | 'description';
export type GroupProblem = Problem<GroupField>;

/** The service's parameter names, as form fields. */
const FIELDS: Record<string, GroupField> = { Name: 'name', Description: 'description' };

export const groupFieldLabel = (field: GroupField): string => t(field === 'name' ? 'library.group.name' : 'library.group.description');
const labels = (): Record<GroupField, string> => ({ name: groupFieldLabel('name'), description: groupFieldLabel('description') });

export interface GroupInput {
  Name: string;
  Description: string;
}

/**
 * Checks a group form with the shared schema of the operation (the proxy's own rules and limits:
 * name 1 to 64 characters, description at most 300). The message names the field.
 */
export function checkGroup(operation: 'CreateAssetGroup' | 'UpdateAssetGroup', name: string, description: string): ActionResult<GroupInput, GroupField> {
  const body = { Name: name.trim(), Description: description.trim() };
  const schemas = librarySchemas();
  const checked = operation === 'CreateAssetGroup' ? check(schemas.CreateAssetGroup, body) : check(schemas.UpdateAssetGroup, { Id: 'x', ...body });
  if (checked.ok) return { ok: true, value: body };
  const field = FIELDS[checked.problem.field];
  if (field === 'name') return { ok: false, problem: { field, message: t('library.group.nameInvalid', { min: LIMITS.groupNameMin, max: LIMITS.groupNameMax }) } };
  if (field === 'description') return { ok: false, problem: { field, message: t('library.group.descriptionInvalid', { max: LIMITS.groupDescriptionMax }) } };
  return { ok: false, problem: { message: checked.problem.message } };
}

async function changed(): Promise<void> {
  announceChange('groups', 'assets', 'settings');
  // The context menu lists the groups: let the background rebuild it (nobody listening is fine).
  await tellBackground({ type: 'arkbridge:groups-changed' });
}

/** At most this many pages are read by a refresh (100 groups a page). */
const MAX_PAGES = 100;

/**
 * Reads every group of the member through the proxy (ListAssetGroups, 100 a page, all pages: the
 * member's own and those shared with them) and which of them others share (`GET /proxy/shared`,
 * with the owner and the member's role), and makes the `groups` store match: listed groups are
 * written (keeping their usedAt), a shared one with its owner and role, groups the proxy no longer
 * lists (deleted, unshared, or another member's) are dropped, and so is a default group that no
 * longer exists. Answers the groups, sorted by name.
 */
export async function refreshGroups(client: ProxyClient): Promise<GroupRecord[]> {
  const [{ items }, shared] = await Promise.all([listAll(client, 'ListAssetGroups', OLDEST_FIRST, { maxPages: MAX_PAGES }), listShared(client)]);
  const sharedById = new Map(shared.map((s) => [s.groupId, s]));
  return groupStore.replaceAll(
    items.map((item) => {
      const group = { id: item.Id, name: item.Name, description: item.Description ?? '', type: item.GroupType };
      const share = sharedById.get(item.Id);
      return share ? { ...group, role: share.role, owner: share.owner } : group;
    }),
  );
}

export interface CreateGroupOptions {
  /** How the page words a failure (default: the popup's). */
  wording?: Wording;
  /** Waits between the checks of a create still in progress (tests pass their own). */
  wait?: (ms: number) => Promise<unknown>;
}

/**
 * Creates a (virtual) group for every caller: the popup's form, the new-group page and the
 * context menu's default group. Checked with the shared schema first; sent with the create's
 * Idempotency-Key (a repeat after a lost answer never makes a second group, one still running is
 * awaited); then remembered as just used, and open views and the context menu are told.
 */
export async function createGroup(client: ProxyClient, name: string, description: string, options: CreateGroupOptions = {}): Promise<ActionResult<GroupRecord, GroupField>> {
  const checked = checkGroup('CreateAssetGroup', name, description);
  if (!checked.ok) return checked;
  const body = checked.value;
  const idempotencyKey = await keyForCreate('CreateAssetGroup', body);
  let id: string;
  try {
    ({ Id: id } = await retryWhileInProgress(() => client.library('CreateAssetGroup', body, { idempotencyKey }), options.wait));
  } catch (error) {
    if (error instanceof ApiError && error.failure.kind === 'rejected') await settleCreate('CreateAssetGroup', body);
    return { ok: false, problem: await problemOf(error, { wording: options.wording, proxyUrl: client.proxyUrl, fields: FIELDS, labels: labels() }) };
  }
  await settleCreate('CreateAssetGroup', body);
  const record = await groupStore.remember({ id, name: body.Name, description: body.Description, type: 'AIGC' });
  await changed();
  return { ok: true, value: record };
}

/** Renames and (re)describes a group (UpdateAssetGroup; an empty description clears it). */
export async function updateGroup(client: ProxyClient, group: GroupRecord, name: string, description: string): Promise<ActionResult<GroupRecord, GroupField>> {
  const checked = checkGroup('UpdateAssetGroup', name, description);
  if (!checked.ok) return checked;
  try {
    await client.library('UpdateAssetGroup', { Id: group.id, ...checked.value });
  } catch (error) {
    return { ok: false, problem: await problemOf(error, { fields: FIELDS, labels: labels() }) };
  }
  const current = (await groupStore.get(group.id)) ?? group;
  const record: GroupRecord = { ...current, name: checked.value.Name, description: checked.value.Description };
  await groupStore.put(record);
  await changed();
  return { ok: true, value: record };
}

/**
 * Deletes a group (DeleteAssetGroup) and, locally, its asset records: the service no longer lets
 * them be used. A group already gone from the library is removed locally all the same.
 */
export async function deleteGroup(client: ProxyClient, group: GroupRecord): Promise<ActionResult<void, GroupField>> {
  try {
    await client.library('DeleteAssetGroup', { Id: group.id });
  } catch (error) {
    if (!isGone(error)) return { ok: false, problem: await problemOf(error, { fields: FIELDS, labels: labels() }) };
  }
  await groupStore.removeWithAssets(group.id);
  await changed();
  return { ok: true, value: undefined };
}
