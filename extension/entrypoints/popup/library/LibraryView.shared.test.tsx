import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { button, byLabel, click, mount, select, text, unmount } from '@/components/dom-testing';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { LibraryFakeProxy } from '@/lib/library/testing/fake-library';
import { db } from '@/lib/storage/database';
import { ME } from '@/lib/testing/fake-team';
import { assetRecord, connect, putGroup, resetState } from '@/lib/testing/test-setup';

const realFetch = globalThis.fetch;
let proxy: LibraryFakeProxy;

const ANA = { id: 'm00000000000000a1', name: 'Ana' };
const BEN = { id: 'm00000000000000b0', name: 'Ben' };

beforeEach(async () => {
  await resetState();
  await connect();
  localStorage.setItem('arkbridge.library.layout', 'list');
  proxy = new LibraryFakeProxy();
  globalThis.fetch = proxy.fetch;
  // The member's own group, and two of Ana's: one to edit, one to view (listed by the proxy with the own ones).
  proxy.seedGroup('own', 'Moodboard');
  proxy.seedGroup('ed', 'Mia (character)');
  proxy.seedGroup('view', 'Brand kit');
  proxy.team.shared = [
    { groupId: 'ed', name: 'Mia (character)', owner: ANA, role: 'editor', sharedAt: '2026-11-20T10:00:00Z' },
    { groupId: 'view', name: 'Brand kit', owner: ANA, role: 'viewer', sharedAt: '2026-11-20T10:00:00Z' },
  ];
  proxy.team.members = [ANA, BEN];
  proxy.seedAsset({ Id: 'a-view', GroupId: 'view', Name: 'logo', Status: 'Active' });
  proxy.seedAsset({ Id: 'a-ed', GroupId: 'ed', Name: 'mia front', Status: 'Active' });
  await putGroup({ id: 'own', name: 'Moodboard' });
  await putGroup({ id: 'ed', name: 'Mia (character)', role: 'editor', owner: ANA });
  await putGroup({ id: 'view', name: 'Brand kit', role: 'viewer', owner: ANA });
  const database = await db();
  await database.put('assets', assetRecord({ localId: 'l-view', assetId: 'a-view', groupId: 'view', name: 'logo', status: 'Active' }));
  await database.put('assets', assetRecord({ localId: 'l-ed', assetId: 'a-ed', groupId: 'ed', name: 'mia front', status: 'Active' }));
});

afterEach(() => {
  unmount();
  localStorage.clear();
  globalThis.fetch = realFetch;
});

const options = () => [...document.querySelectorAll<HTMLElement>('[role="option"]')];
const open = (name: string) => click(options().find((o) => o.querySelector('.row__name')?.textContent === name)!);
const buttons = () => [...document.querySelectorAll('button')].map((b) => b.textContent?.trim());

async function mountSettled() {
  mount(<LibraryView />);
  await vi.waitFor(() => expect(proxy.callsOf('ListAssets').length).toBeGreaterThan(0));
  await vi.waitFor(() => expect(document.querySelector('.library__sync')!.textContent).toBe(''));
}

describe('Library: groups others share', () => {
  it('lists shared groups with the member\'s role and the owner\'s name; own groups carry neither', async () => {
    await mountSettled();
    const row = (name: string) => options().find((o) => o.querySelector('.row__name')?.textContent === name)!.textContent!;
    expect(row('Brand kit')).toContain('Viewer');
    expect(row('Brand kit')).toContain('Shared by Ana');
    expect(row('Mia (character)')).toContain('Editor');
    expect(row('Moodboard')).not.toMatch(/Viewer|Editor|Shared by/);
    // A viewer's group takes no dropped files; an editor's does.
    expect(options().find((o) => o.textContent!.includes('Brand kit'))!.hasAttribute('data-drop-group')).toBe(false);
    expect(options().find((o) => o.textContent!.includes('Mia'))!.hasAttribute('data-drop-group')).toBe(true);
  });

  it('offers a viewer no action that changes the group or its assets', async () => {
    await mountSettled();
    open('Brand kit');
    expect(text()).toContain('Shared by Ana to view');
    for (const name of ['Rename / describe', 'Delete group', 'Share…', 'Add files…']) expect(buttons()).not.toContain(name);
    open('logo');
    await vi.waitFor(() => expect(document.getElementById('library-asset-title')?.textContent).toBe('logo'));
    expect(buttons()).not.toContain('Rename');
    expect(buttons()).not.toContain('Delete asset');
  });

  it('lets an editor add, rename and delete assets and rename the group, never delete or share it', async () => {
    await mountSettled();
    open('Mia (character)');
    expect(buttons()).toEqual(expect.arrayContaining(['Rename / describe', 'Add files…']));
    expect(buttons()).not.toContain('Delete group');
    expect(buttons()).not.toContain('Share…');
    open('mia front');
    await vi.waitFor(() => expect(buttons()).toEqual(expect.arrayContaining(['Rename', 'Delete asset'])));
  });
});

describe('Library: the share dialog', () => {
  async function openShare(group = 'Moodboard') {
    await mountSettled();
    open(group);
    click(button('Share…'));
    await vi.waitFor(() => expect(text()).toContain('Everyone in the team'));
  }

  it('shows the current sharing and sends the team role and only the member entries that change', async () => {
    proxy.team.sharing.set('own', { groupId: 'own', name: 'Moodboard', owner: ME, team: 'viewer', members: { [ANA.id]: 'editor' } });
    await openShare();
    expect(byLabel<HTMLSelectElement>('Everyone in the team').value).toBe('viewer');
    expect(byLabel<HTMLSelectElement>('Ana').value).toBe('editor');
    expect(byLabel<HTMLSelectElement>('Ben').value).toBe('team');
    // Everyone may edit, except Ben, kept out.
    select(byLabel('Everyone in the team'), 'editor');
    select(byLabel('Ben'), 'none');
    click(button('Save sharing'));
    await vi.waitFor(() => expect(text()).toContain('Sharing saved.'));
    const puts = proxy.calls.filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.path).toBe('/proxy/groups/own/sharing');
    // Ana's entry stays as it is: it is not sent again.
    expect(puts[0]!.body).toEqual({ team: 'editor', members: { [BEN.id]: 'none' } });
    expect(proxy.team.sharing.get('own')).toMatchObject({ team: 'editor', members: { [ANA.id]: 'editor', [BEN.id]: 'none' } });
  });

  it('puts a member back on the team\'s role by an entry equal to it', async () => {
    proxy.team.sharing.set('own', { groupId: 'own', name: 'Moodboard', owner: ME, team: 'viewer', members: { [ANA.id]: 'editor' } });
    await openShare();
    select(byLabel('Ana'), 'team');
    click(button('Save sharing'));
    await vi.waitFor(() => expect(text()).toContain('Sharing saved.'));
    expect(proxy.calls.find((c) => c.method === 'PUT')!.body).toEqual({ team: 'viewer', members: { [ANA.id]: 'viewer' } });
  });

  it('offers a real-person group "Can view" only', async () => {
    proxy.groupTypes.set('own', 'LivenessFace');
    await putGroup({ id: 'own', name: 'Moodboard', type: 'LivenessFace' });
    await openShare();
    const values = [...byLabel<HTMLSelectElement>('Everyone in the team').options].map((o) => o.value);
    expect(values).toEqual(['none', 'viewer']);
    expect([...byLabel<HTMLSelectElement>('Ana').options].map((o) => o.value)).toEqual(['team', 'none', 'viewer']);
  });

  it('says clearly why a save was refused (not the owner), and keeps the choices', async () => {
    await openShare();
    select(byLabel('Ben'), 'editor');
    proxy.failNext('/proxy/groups/own/sharing', { kind: 'api-error', status: 403, code: 'not_owner', message: 'Only the owner.' });
    click(button('Save sharing'));
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('Only the group’s owner can change its sharing.'));
    expect(byLabel<HTMLSelectElement>('Ben').value).toBe('editor');
    expect(text()).not.toContain('Sharing saved.');
  });

  it('says when the sharing cannot be read', async () => {
    proxy.failNext('/proxy/groups/own/sharing', { kind: 'api-error', status: 404, code: 'group_not_found', message: 'No group.' });
    await mountSettled();
    open('Moodboard');
    click(button('Share…'));
    await vi.waitFor(() => expect(text()).toContain('Could not read this group’s sharing: This group is no longer in the library, or it is not yours to share.'));
  });

  it('shows a refused PUT with the proxy\'s words for the field', async () => {
    await openShare();
    select(byLabel('Everyone in the team'), 'viewer');
    proxy.failNext('/proxy/groups/own/sharing', { kind: 'api-error', status: 400, code: 'invalid_parameter', message: 'members.m1: is a revoked member', param: 'members.m1' });
    click(button('Save sharing'));
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toContain('members.m1: is a revoked member'));
    expect(byLabel<HTMLSelectElement>('Everyone in the team').value).toBe('viewer');
  });
});
