import { check, LIMITS, librarySchemas } from '../../../shared';
import type { ProxyClient } from '../api/client';
import { ApiError } from '../api/errors';
import { announceChange, db, type GroupRecord } from '../db';
import { DEFAULT_GROUP_KEY, rememberGroup } from '../groups';
import { t } from '../i18n';
import { tellBackground } from '../messages';
import { explain, isGone, type ActionProblem, type ActionResult } from './errors';

/** The fields of the group form. */
export type GroupField = 'name' | 'description';
export type GroupProblem = ActionProblem<GroupField>;

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CreateAssetGroup with the form's Idempotency-Key (a retry after a lost answer never creates a
 * second group; a create still running under the key is awaited, never re-sent with a new key).
 */
export async function createGroup(
  client: ProxyClient,
  name: string,
  description: string,
  idempotencyKey: string,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<ActionResult<GroupRecord, GroupField>> {
  const checked = checkGroup('CreateAssetGroup', name, description);
  if (!checked.ok) return checked;
  for (let attempt = 0; ; attempt++) {
    try {
      const { Id } = await client.library('CreateAssetGroup', checked.value, { idempotencyKey });
      const record = await rememberGroup({ id: Id, name: checked.value.Name, description: checked.value.Description, type: 'AIGC' });
      await changed();
      return { ok: true, value: record };
    } catch (error) {
      if (error instanceof ApiError && error.failure.kind === 'in_progress' && attempt < 5) {
        await wait(1000 * (attempt + 1));
        continue;
      }
      return { ok: false, problem: await explain(error, FIELDS, labels()) };
    }
  }
}

/** Renames and (re)describes a group (UpdateAssetGroup; an empty description clears it). */
export async function updateGroup(client: ProxyClient, group: GroupRecord, name: string, description: string): Promise<ActionResult<GroupRecord, GroupField>> {
  const checked = checkGroup('UpdateAssetGroup', name, description);
  if (!checked.ok) return checked;
  try {
    await client.library('UpdateAssetGroup', { Id: group.id, ...checked.value });
  } catch (error) {
    return { ok: false, problem: await explain(error, FIELDS, labels()) };
  }
  const database = await db();
  const current = (await database.get('groups', group.id)) ?? group;
  const record: GroupRecord = { ...current, name: checked.value.Name, description: checked.value.Description };
  await database.put('groups', record);
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
    if (!isGone(error)) return { ok: false, problem: await explain(error, FIELDS, labels()) };
  }
  await forgetGroup(group.id);
  await changed();
  return { ok: true, value: undefined };
}

/** Removes a group, its asset records and its default-group setting from IndexedDB. */
export async function forgetGroup(groupId: string): Promise<void> {
  const database = await db();
  const tx = database.transaction(['groups', 'assets', 'settings'], 'readwrite');
  await tx.objectStore('groups').delete(groupId);
  const assets = tx.objectStore('assets');
  for (const key of await assets.index('byGroup').getAllKeys(groupId)) await assets.delete(key);
  if ((await tx.objectStore('settings').get(DEFAULT_GROUP_KEY)) === groupId) await tx.objectStore('settings').delete(DEFAULT_GROUP_KEY);
  await tx.done;
}
