import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildMenus, groupOfItem, itemOf, MEDIA_LINK_PATTERNS, MENU, type MenuState, submenuItems } from '@/lib/background/context-menu';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import { type BrowserMocks, resetState } from '@/lib/testing/test-setup';

const group = (id: string, usedAt: number, over: Partial<GroupRecord> = {}): GroupRecord => ({ id, name: `Group ${id}`, description: '', type: 'AIGC', usedAt, ...over });

let mocks: BrowserMocks;
beforeEach(async () => {
  vi.restoreAllMocks();
  mocks = await resetState();
});

describe('submenuItems', () => {
  it('offers only a connect item when not connected', () => {
    expect(submenuItems({ connected: false, groups: [group('a', 1)], defaultGroupId: 'a' })).toEqual([{ id: MENU.connect, title: expect.stringMatching(/Connect/) }]);
  });

  it('offers to create the default group when there is none yet', () => {
    expect(submenuItems({ connected: true, groups: [], defaultGroupId: null }).map((i) => i.id)).toEqual([MENU.createDefault, MENU.newGroup]);
  });

  it('lists the default group first, then at most 5 recent groups, then "New group…"', () => {
    const state: MenuState = {
      connected: true,
      defaultGroupId: 'default',
      groups: [
        group('default', 1, { name: 'Web captures' }),
        group('g1', 10),
        group('g2', 70),
        group('g3', 30),
        group('g4', 60),
        group('g5', 50),
        group('g6', 40),
        group('face', 100, { type: 'LivenessFace' }),
      ],
    };
    expect(submenuItems(state)).toEqual([
      { id: 'group:default', title: 'Web captures (default)' },
      { id: 'group:g2', title: 'Group g2' },
      { id: 'group:g4', title: 'Group g4' },
      { id: 'group:g5', title: 'Group g5' },
      { id: 'group:g6', title: 'Group g6' },
      { id: 'group:g3', title: 'Group g3' },
      { id: MENU.newGroup, title: 'New group…' },
    ]);
  });

  it('uses the most recent group as default when the default one is unknown', () => {
    const items = submenuItems({ connected: true, defaultGroupId: 'deleted', groups: [group('old', 1), group('recent', 5)] });
    expect(items.map((i) => i.id)).toEqual(['group:recent', 'group:old', MENU.newGroup]);
    expect(items[0]!.title).toMatch(/\(default\)$/);
  });
});

describe('shared groups in the menu', () => {
  const ana = { id: 'm00000000000000a1', name: 'Ana' };

  it('offers editor groups shared with the member, named with their owner, and never viewer groups', () => {
    const items = submenuItems({
      connected: true,
      defaultGroupId: 'mine',
      groups: [
        group('mine', 5, { name: 'Moodboard' }),
        group('ed', 0, { name: 'Mia (character)', role: 'editor', owner: ana }),
        group('view', 9, { name: 'Brand kit', role: 'viewer', owner: ana }),
      ],
    });
    expect(items).toEqual([
      { id: 'group:mine', title: 'Moodboard (default)' },
      { id: 'group:ed', title: 'Mia (character) — Ana' },
      { id: MENU.newGroup, title: 'New group…' },
    ]);
  });

  it('lists shared editor groups past the recent ones, and never makes a viewer group the default', () => {
    const own = Array.from({ length: 7 }, (_, i) => group(`o${i}`, 10 + i));
    const items = submenuItems({
      connected: true,
      defaultGroupId: 'view',
      groups: [...own, group('ed', 0, { name: 'Shared', role: 'editor', owner: ana }), group('view', 99, { role: 'viewer', owner: ana })],
    });
    expect(items[0]).toEqual({ id: 'group:o6', title: 'Group o6 (default)' });
    expect(items.map((i) => i.id)).toContain('group:ed');
    expect(items.map((i) => i.id)).not.toContain('group:view');
  });
});

describe('menu item ids', () => {
  it('maps submenu ids back to the item and its group', () => {
    expect(itemOf('arkbridge-media/new-group')).toBe(MENU.newGroup);
    expect(itemOf('arkbridge-link/group:g-1')).toBe('group:g-1');
    expect(groupOfItem(itemOf('arkbridge-media/group:g-1'))).toBe('g-1');
    expect(groupOfItem(MENU.createDefault)).toBeNull();
    expect(itemOf('arkbridge-media')).toBe('');
  });
});

describe('buildMenus', () => {
  const state: MenuState = { connected: true, defaultGroupId: 'd', groups: [group('d', 1), group('g', 2)] };

  it('removes every item before creating the two roots, their submenus, the page items and the captures', async () => {
    await buildMenus(state);
    expect(mocks.removeAll).toHaveBeenCalledTimes(1);
    const created = mocks.create.mock.calls.map(([props]) => props);
    expect(mocks.removeAll.mock.invocationCallOrder[0]).toBeLessThan(mocks.create.mock.invocationCallOrder[0]!);
    expect(created.map((p) => p.id)).toEqual([
      'arkbridge-media',
      'arkbridge-media/group:d',
      'arkbridge-media/group:g',
      'arkbridge-media/new-group',
      'arkbridge-link',
      'arkbridge-link/group:d',
      'arkbridge-link/group:g',
      'arkbridge-link/new-group',
      'arkbridge-page-media',
      'arkbridge-capture-visible',
      'arkbridge-capture-region',
      'arkbridge-capture-frame',
    ]);
    expect(created[8]).toMatchObject({ contexts: ['page'] });
    expect(created.slice(9)).toEqual([
      { id: MENU.captureVisible, title: 'Capture visible area', contexts: ['page'] },
      { id: MENU.captureRegion, title: 'Capture a region…', contexts: ['page'] },
      { id: MENU.captureFrame, title: 'Capture this frame', contexts: ['video'] },
    ]);
    expect(created[8]).not.toHaveProperty('parentId');
    expect(created[0]).toMatchObject({ contexts: ['image', 'video', 'audio'] });
    expect(created[0]).not.toHaveProperty('targetUrlPatterns');
    expect(created[4]).toMatchObject({ contexts: ['link'], targetUrlPatterns: MEDIA_LINK_PATTERNS });
    expect(created[5]).toMatchObject({ parentId: 'arkbridge-link', contexts: ['link'] });
    expect(new Set(created.map((p) => p.id)).size).toBe(created.length);
  });

  it('never interleaves two rebuilds (no duplicate ids)', async () => {
    await Promise.all([buildMenus(state), buildMenus({ ...state, connected: false })]);
    // Every removeAll is followed by one complete set of items before the next removeAll.
    const events = [
      ...mocks.removeAll.mock.invocationCallOrder.map((order) => ({ order, id: '*removeAll*' })),
      ...mocks.create.mock.invocationCallOrder.map((order, i) => ({ order, id: mocks.create.mock.calls[i]![0].id as string })),
    ]
      .sort((a, b) => a.order - b.order)
      .map((e) => e.id);
    const batches = events.join('\n').split('*removeAll*').slice(1).map((b) => b.split('\n').filter(Boolean));
    expect(batches).toHaveLength(2);
    for (const batch of batches) expect(new Set(batch).size).toBe(batch.length);
    // Captures are offered when not connected too: their click says to connect first.
    expect(batches[1]).toEqual([
      'arkbridge-media',
      'arkbridge-media/connect',
      'arkbridge-link',
      'arkbridge-link/connect',
      'arkbridge-page-media',
      'arkbridge-capture-visible',
      'arkbridge-capture-region',
      'arkbridge-capture-frame',
    ]);
  });

  it('still rebuilds after a rebuild failed', async () => {
    mocks.removeAll.mockRejectedValueOnce(new Error('boom'));
    await expect(buildMenus(state)).rejects.toThrow('boom');
    await buildMenus(state);
    expect(mocks.create).toHaveBeenCalledTimes(12);
  });
});
