import { browser } from 'wxt/browser';

/**
 * The manifest's command (wxt.config.ts `commands`, handled by lib/background/keyboard-save): save
 * what is under the pointer to the last used group. Here, apart, so that the options page can show
 * its shortcut without bundling the background's modules.
 */
export const SAVE_COMMAND = 'save-to-last-group';

/** The browser's own page for extension shortcuts: Firefox opens it itself (commands.openShortcutSettings, Firefox 137). */
const CHROME_SHORTCUTS_PAGE = 'chrome://extensions/shortcuts';

type CommandsApi = typeof browser.commands & { openShortcutSettings?: () => Promise<void> };

/** Whether the browser opens its shortcut settings for the extension (Firefox), rather than a page to open (Chrome). */
export const opensShortcutSettings = (): boolean => typeof (browser.commands as CommandsApi | undefined)?.openShortcutSettings === 'function';

/**
 * The save command's current shortcut: '' when it has none (Chrome leaves the suggested key unset
 * when something else holds it, and the member may clear it); null when the browser cannot say.
 */
export async function saveShortcut(): Promise<string | null> {
  try {
    const commands = await browser.commands.getAll();
    return commands.find((command) => command.name === SAVE_COMMAND)?.shortcut ?? '';
  } catch {
    return null;
  }
}

/** Opens where the member changes the shortcut: Firefox's "Manage Extension Shortcuts", Chrome's chrome://extensions/shortcuts. */
export async function openShortcutSettings(): Promise<void> {
  const commands = browser.commands as CommandsApi;
  if (opensShortcutSettings()) return commands.openShortcutSettings!();
  await browser.tabs.create({ url: CHROME_SHORTCUTS_PAGE });
}
