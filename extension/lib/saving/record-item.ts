import { t } from '@/lib/i18n/translate';
import type { AddItemReply } from '@/lib/messaging/extension-messages';
import { type AddRequest, addToLibrary } from '@/lib/saving/add-to-library';
import { groupStore } from '@/lib/storage/group-store';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import { announceChange } from '@/lib/storage/store-changes';
import '@/lib/i18n/background.en';

/**
 * Records and queues one item to add (addToLibrary: the record and its Idempotency-Key in one
 * transaction), from anywhere: the background's menu, keyboard and captures (menu-click's
 * queueAsset, which then syncs) and the pages' local files (local-files, which then tells the
 * background). The group becomes the last used one, even for an item already there (the keyboard
 * save's next target). A duplicate is not created again: the answer says why, in words, and which
 * record it is (`duplicateOf`), for the caller to tell or to follow.
 */
export async function recordItem(request: AddRequest): Promise<AddItemReply> {
  const outcome = await addToLibrary(request);
  await lastUsedGroup.remember(request.groupId);
  if (outcome.kind === 'duplicate') {
    const group = await groupStore.get(request.groupId);
    const params = { name: outcome.record.name, group: group?.name ?? t('notify.duplicate.thisGroup') };
    const message = t(outcome.record.status === 'Active' ? 'notify.duplicate.active' : 'notify.duplicate.pending', params);
    return { ok: false, message, duplicateOf: outcome.record.localId };
  }
  announceChange('assets', 'queue', 'groups');
  return { ok: true, localId: outcome.record.localId };
}
