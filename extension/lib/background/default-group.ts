import { t } from '@/lib/i18n/translate';
import { createGroup } from '@/lib/library/group-actions';
import type { ActionResult } from '@/lib/proxy/failure-message';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { groupStore } from '@/lib/storage/group-store';
import '@/lib/i18n/background.en';

/**
 * The default group: created on first use ("Web captures") and remembered as the default. A second
 * click before the menu was rebuilt finds it already made. Its own module so that the menu's adds
 * and the screenshots (lib/capture/snapshot-save) share it without an import cycle.
 */
export async function defaultGroup(client: ProxyClient): Promise<ActionResult<string>> {
  const known = await groupStore.defaultId();
  if (known && (await groupStore.get(known))) return { ok: true, value: known };
  const created = await createGroup(client, t('capture.defaultGroup.name'), t('capture.defaultGroup.description'));
  if (!created.ok) return created;
  await groupStore.setDefaultId(created.value.id);
  return { ok: true, value: created.value.id };
}
