import { db } from './db';

/** The popup's tabs. */
export type PopupTab = 'library' | 'generate' | 'tasks' | 'portrait';

/** Settings key: the popup tab to show at the next opening (set by a notification click, read once). */
export const NEXT_TAB_KEY = 'popup.nextTab';

/** Asks the next popup to open on `tab`. */
export async function setNextTab(tab: PopupTab): Promise<void> {
  await (await db()).put('settings', tab, NEXT_TAB_KEY);
}

/** The tab a notification click asked for, once (null when none). */
export async function takeNextTab(): Promise<PopupTab | null> {
  const database = await db();
  const tab = (await database.get('settings', NEXT_TAB_KEY)) as PopupTab | undefined;
  if (tab) await database.delete('settings', NEXT_TAB_KEY);
  return tab ?? null;
}
