import { t } from '@/lib/i18n/translate';
import { notify } from '@/lib/messaging/notify';
import { checkHandle, classifyResolveError, isLockHeld, VIEW_LOCK } from '@/lib/portrait/portrait-resolve';
import { clearSession, listGroupAssets, readSession, storeAssets, storeGroup } from '@/lib/portrait/portrait-store';
import { ApiError } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { announceChange } from '@/lib/storage/store-changes';
import '@/lib/i18n/background.en';

/** What the background's check of a QR code left by a closed popup found. */
export type PortraitCheck = 'none' | 'pending' | 'resolved' | 'ended';

/**
 * The QR code a popup left on screen, checked from the background: the person may finish on the
 * phone after the member closed the popup. While a popup shows the Real person tab it does the
 * checking itself. Resolved: the group and its assets are stored and the member is notified. An
 * expired or refused code is forgotten. An unanswered check (offline, busy) is repeated on the next
 * pass; a refused member token is passed on (ApiError) for the sync to ask for a reconnect.
 */
export async function checkPendingPortrait(client: ProxyClient, now = Date.now()): Promise<PortraitCheck> {
  const session = await readSession();
  if (!session) return 'none';
  if (session.expiresAt <= now) {
    await clearSession(session.handle);
    return 'ended';
  }
  if (await isLockHeld(VIEW_LOCK)) return 'pending';
  const check = await checkHandle(client, session.handle, { wait: false });
  if (check.kind === 'busy') return 'pending';
  if (check.kind === 'failed') {
    if (check.error instanceof ApiError && check.error.failure.kind === 'unauthorized') throw check.error;
    const outcome = classifyResolveError(check.error);
    if (outcome === 'pending' || outcome === 'transient') return 'pending';
    await clearSession(session.handle);
    return 'ended';
  }

  const { resolved } = check;
  const group = await storeGroup(resolved, now);
  let captured: number | null = null;
  try {
    captured = (await storeAssets(group.id, await listGroupAssets(client, group.id), now)).length;
  } catch {
    // The group is stored; its assets arrive with the next library refresh.
  }
  announceChange('groups', 'assets');
  await notify(
    `portrait-${group.id}`,
    t('notify.portrait.title', { name: group.name }),
    captured === null ? t('notify.portrait.noAssets') : t('notify.portrait.assets', { count: captured }),
  );
  return 'resolved';
}
