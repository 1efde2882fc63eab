import { beforeEach, describe, expect, it } from 'vitest';
import { refreshGroups } from '@/lib/library/group-actions';
import { accessOf, canAddTo, canEditAssets, canManage } from '@/lib/library/group-access';
import { refreshLibrary } from '@/lib/library/library-refresh';
import { type LibraryFakeProxy, libraryTestbed } from '@/lib/library/testing/fake-library';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import { putGroup } from '@/lib/testing/test-setup';

let proxy: LibraryFakeProxy;
let client: ProxyClient;
let messages: unknown[];

const ANA = { id: 'm00000000000000a1', name: 'Ana' };
const shared = (groupId: string, name: string, role: 'viewer' | 'editor') => ({ groupId, name, owner: ANA, role, sharedAt: '2026-11-20T10:00:00Z' });

beforeEach(async () => {
  ({ proxy, client, messages } = await libraryTestbed());
  proxy.seedGroup('own', 'Moodboard');
  // The proxy's ListAssetGroups lists shared groups with the member's own ones.
  proxy.seedGroup('g-ed', 'Mia (character)');
  proxy.seedGroup('g-view', 'Brand kit');
  proxy.team.shared = [shared('g-ed', 'Mia (character)', 'editor'), shared('g-view', 'Brand kit', 'viewer')];
});

describe('shared groups in the groups store', () => {
  it('keeps groups others share with their owner and the member\'s role; the member\'s own groups stay the owner\'s', async () => {
    await refreshGroups(client);
    const byId = new Map((await groupStore.all()).map((g) => [g.id, g]));
    expect(byId.get('g-ed')).toMatchObject({ name: 'Mia (character)', role: 'editor', owner: ANA });
    expect(byId.get('g-view')).toMatchObject({ role: 'viewer', owner: ANA });
    expect(byId.get('own')).not.toHaveProperty('role');
    expect(accessOf(byId.get('own')!)).toBe('owner');
    expect(proxy.callsOf('/proxy/shared')).toHaveLength(1);
  });

  it('drops a group no longer shared, and turns a record into the member\'s own when it is (a transfer)', async () => {
    await refreshGroups(client);
    proxy.groups.delete('g-view');
    proxy.team.shared = [];
    await refreshGroups(client);
    const groups = await groupStore.all();
    expect(groups.map((g) => g.id).sort()).toEqual(['g-ed', 'own']);
    expect(groups.find((g) => g.id === 'g-ed')).not.toHaveProperty('role');
  });

  it('reads a proxy from before the team library (404 on /proxy/shared) as nothing shared', async () => {
    proxy.team.supported = false;
    await refreshGroups(client);
    expect((await groupStore.all()).every((g) => accessOf(g) === 'owner')).toBe(true);
  });

  it('lists the assets of shared groups like the member\'s own, and tells the background when a role changes', async () => {
    proxy.seedAssets('g-view', 2, () => ({ Status: 'Active' }));
    await refreshLibrary(client);
    expect((await assetStore.all()).map((a) => a.groupId)).toEqual(['g-view', 'g-view']);
    messages.length = 0;
    proxy.team.shared = [shared('g-ed', 'Mia (character)', 'viewer'), shared('g-view', 'Brand kit', 'viewer')];
    await refreshLibrary(client);
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
  });
});

describe('what a role allows', () => {
  it('a viewer neither adds, edits nor manages; an editor adds and edits but does not manage; the owner does all', async () => {
    const viewer = await putGroup({ id: 'v', role: 'viewer', owner: ANA });
    const editor = await putGroup({ id: 'e', role: 'editor', owner: ANA });
    const own = await putGroup({ id: 'o' });
    expect([canAddTo(viewer), canEditAssets(viewer), canManage(viewer)]).toEqual([false, false, false]);
    expect([canAddTo(editor), canEditAssets(editor), canManage(editor)]).toEqual([true, true, false]);
    expect([canAddTo(own), canEditAssets(own), canManage(own)]).toEqual([true, true, true]);
    expect(canAddTo({ ...own, type: 'LivenessFace' })).toBe(false);
  });
});
