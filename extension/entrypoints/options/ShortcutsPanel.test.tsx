import { deleteDB } from 'idb';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { ShortcutsPanel } from '@/entrypoints/options/ShortcutsPanel';
import { setLocale } from '@/lib/i18n/translate';
import { closeDb, DB_NAME } from '@/lib/storage/database';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { GroupRecord } from '@/lib/storage/records/group-record';

const GROUPS: GroupRecord[] = [{ id: 'g1', name: 'Moodboard', description: '', type: 'AIGC', usedAt: 0 }];

let commands: { getAll: ReturnType<typeof vi.fn>; openShortcutSettings?: ReturnType<typeof vi.fn> };

beforeEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
  fakeBrowser.reset();
  commands = { getAll: vi.fn(async () => [{ name: '_execute_action', shortcut: '' }, { name: 'save-to-last-group', description: 'Save', shortcut: 'Alt+Shift+S' }]) };
  (fakeBrowser as unknown as { commands: typeof commands }).commands = commands;
});

afterEach(async () => {
  unmount();
  await setLocale('en');
});

const shortcutLine = () => document.getElementById('save-shortcut')?.textContent ?? '';

async function open(groups = GROUPS) {
  mount(<ShortcutsPanel groups={groups} />);
  await vi.waitFor(() => expect(document.querySelector('#save-shortcut kbd, #save-shortcut em')).not.toBeNull());
}

describe('options page: keyboard shortcuts', () => {
  it('shows the save command’s current shortcut and the group it saves to', async () => {
    await lastUsedGroup.remember('g1');
    await open();
    expect(text()).toContain('Keyboard shortcuts');
    expect(shortcutLine()).toBe('Save to the last used group: Alt+Shift+S');
    expect(document.querySelector('#save-shortcut kbd')?.textContent).toBe('Alt+Shift+S');
    expect(text()).toContain('Last used group: Moodboard.');
  });

  it('says when no shortcut is set (taken by something else, or cleared) and no group was used yet', async () => {
    commands.getAll.mockResolvedValue([{ name: 'save-to-last-group', shortcut: '' }]);
    await open();
    expect(shortcutLine()).toBe('Save to the last used group: no shortcut set');
    expect(text()).toContain('No group used yet: the shortcut saves to the default group');
  });

  it('in Chrome, opens chrome://extensions/shortcuts to change it', async () => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await open();
    expect(text()).toContain('open chrome://extensions/shortcuts');
    click(button('Change shortcut'));
    await vi.waitFor(() => expect(create).toHaveBeenCalledWith({ url: 'chrome://extensions/shortcuts' }));
  });

  it('in Firefox, opens the add-ons manager’s shortcut settings', async () => {
    commands.openShortcutSettings = vi.fn(async () => {});
    await open();
    expect(text()).toContain('open the add-ons manager (about:addons)');
    click(button('Change shortcut'));
    await vi.waitFor(() => expect(commands.openShortcutSettings).toHaveBeenCalledTimes(1));
    commands.openShortcutSettings.mockRejectedValue(new Error('No window'));
    click(button('Change shortcut'));
    await vi.waitFor(() => expect(document.getElementById('shortcuts-note')?.textContent).toBe('Could not open the shortcut settings: No window'));
  });

  it('reads the shortcut again when the page is shown again', async () => {
    await open();
    commands.getAll.mockResolvedValue([{ name: 'save-to-last-group', shortcut: 'Ctrl+Shift+9' }]);
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await vi.waitFor(() => expect(shortcutLine()).toBe('Save to the last used group: Ctrl+Shift+9'));
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    commands.getAll.mockRejectedValue(new Error('not supported'));
    await open();
    expect(text()).toContain('键盘快捷键');
    expect(shortcutLine()).toBe('保存到上次使用的分组： 此浏览器无法告知已设置的快捷键');
    expect(text()).toContain('chrome://extensions/shortcuts');
    expect(button('更改快捷键')).toBeDefined();
  });
});
