import { t } from '@/lib/i18n/translate';
import { createGroup } from '@/lib/library/group-actions';
import { canAddTo } from '@/lib/library/group-access';
import type { ActionResult } from '@/lib/proxy/failure-message';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { groupStore } from '@/lib/storage/group-store';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import '@/lib/i18n/background.en';

/**
 * Where a save goes when the member names no group. Its own module so that the menu's adds, the
 * screenshots (lib/background/snapshot-save) and the keyboard save share it without an import cycle.
 */

/**
 * The default group: the one chosen in the options page, else "Web captures", created on first use
 * and remembered as the default. A second click before the menu was rebuilt finds it already made.
 */
export async function defaultGroup(client: ProxyClient): Promise<ActionResult<string>> {
  const known = await groupStore.defaultId();
  if (known && (await groupStore.get(known))) return { ok: true, value: known };
  const created = await createGroup(client, t('capture.defaultGroup.name'), t('capture.defaultGroup.description'));
  if (!created.ok) return created;
  await groupStore.setDefaultId(created.value.id);
  return { ok: true, value: created.value.id };
}

/**
 * The group a quick save goes to (the keyboard save, a screenshot, a video frame): the group last
 * saved to while it exists and the member may still add to it (a shared group whose editor role
 * became viewer may not), else the default group, made if needed.
 * Called once there is something to save, so that nothing makes an empty group.
 */
export async function quickSaveGroup(client: ProxyClient): Promise<ActionResult<{ id: string; name: string }>> {
  const last = await lastUsedGroup.id();
  const lastGroup = last ? await groupStore.get(last) : undefined;
  if (lastGroup && canAddTo(lastGroup)) return { ok: true, value: { id: lastGroup.id, name: lastGroup.name } };
  const made = await defaultGroup(client);
  if (!made.ok) return made;
  return { ok: true, value: { id: made.value, name: (await groupStore.get(made.value))?.name ?? t('capture.defaultGroup.name') } };
}
