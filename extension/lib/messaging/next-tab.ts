import type { PopupTab } from '@/lib/storage/records/setting-values';
import { settingsStore } from '@/lib/storage/settings-store';

/** Asks the next popup to open on `tab` (a notification click); read once. */
export async function setNextTab(tab: PopupTab): Promise<void> {
  await settingsStore.put('popup.nextTab', tab);
}

/** The tab a notification click asked for, once (null when none). */
export async function takeNextTab(): Promise<PopupTab | null> {
  let tab: PopupTab | undefined;
  await settingsStore.update('popup.nextTab', (current) => void (tab = current));
  return tab ?? null;
}
