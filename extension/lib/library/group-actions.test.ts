import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n/translate';
import { checkGroup, createGroup, deleteGroup, updateGroup } from '@/lib/library/group-actions';
import { type LibraryFakeProxy, libraryTestbed } from '@/lib/library/testing/fake-library';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { db } from '@/lib/storage/database';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';
import { assetRecord, putGroup } from '@/lib/testing/test-setup';

let proxy: LibraryFakeProxy;
let client: ProxyClient;
let messages: unknown[];

beforeEach(async () => {
  ({ proxy, client, messages } = await libraryTestbed());
});
afterEach(() => setLocale('en'));

describe('group form checks (shared schema, field named)', () => {
  it.each([
    ['CreateAssetGroup', '', ''],
    ['CreateAssetGroup', '   ', ''],
    ['CreateAssetGroup', 'x'.repeat(65), ''],
    ['UpdateAssetGroup', '', ''],
    ['UpdateAssetGroup', 'x'.repeat(65), ''],
  ] as const)('%s refuses the name %j', (operation, name, description) => {
    expect(checkGroup(operation, name, description)).toEqual({ ok: false, problem: { field: 'name', message: 'Group name: must be 1 to 64 characters' } });
  });

  it('refuses a description over 300 characters, naming it; accepts the limits', () => {
    expect(checkGroup('CreateAssetGroup', 'ok', 'd'.repeat(301))).toEqual({
      ok: false,
      problem: { field: 'description', message: 'Description: must be at most 300 characters' },
    });
    expect(checkGroup('UpdateAssetGroup', 'ok', 'd'.repeat(301)).ok).toBe(false);
    expect(checkGroup('CreateAssetGroup', 'x'.repeat(64), 'd'.repeat(300))).toEqual({ ok: true, value: { Name: 'x'.repeat(64), Description: 'd'.repeat(300) } });
    expect(checkGroup('CreateAssetGroup', 'x', '').ok).toBe(true);
  });

  it('speaks Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(checkGroup('CreateAssetGroup', '', '')).toMatchObject({ ok: false, problem: { field: 'name', message: '分组名称：长度须为 1 到 64 个字符' } });
  });
});

describe('group actions', () => {
  it('creates with an Idempotency-Key, records the group as just used and tells the background', async () => {
    const result = await createGroup(client, '  Cats ', 'Reference cats');
    expect(result).toMatchObject({ ok: true, value: { name: 'Cats', description: 'Reference cats', type: 'AIGC' } });
    const [call] = proxy.callsOf('CreateAssetGroup');
    expect(call!.idempotencyKey).toBeTruthy();
    expect(call!.body).toEqual({ Name: 'Cats', Description: 'Reference cats' });
    const id = result.ok ? result.value.id : '';
    expect(await (await db()).get('groups', id)).toMatchObject({ name: 'Cats', usedAt: expect.any(Number) });
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
  });

  it('repeats a create whose answer was lost with the same key, so the proxy makes one group', async () => {
    proxy.failNext('CreateAssetGroup', { kind: 'timeout-after-commit' });
    expect(await createGroup(client, 'Cats', '')).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/Try again/) } });
    const again = await createGroup(client, 'Cats', '');
    const [first, second] = proxy.callsOf('CreateAssetGroup');
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey);
    expect(again).toMatchObject({ ok: true });
    expect(proxy.groups.size).toBe(1);
    // Settled: the same name again is a second group, asked for on purpose.
    await createGroup(client, 'Cats', '');
    expect(proxy.callsOf('CreateAssetGroup')[2]!.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect(proxy.groups.size).toBe(2);
  });

  it('awaits a create still in progress under its key instead of sending a new one', async () => {
    proxy.failNext('CreateAssetGroup', { kind: 'status', status: 409, code: 'IdempotencyInProgress', message: 'Running' }, 2);
    const waits: number[] = [];
    const result = await createGroup(client, 'Cats', '', { wait: async (ms) => void waits.push(ms) });
    expect(result).toMatchObject({ ok: true });
    expect(waits).toEqual([1000, 2000]);
    expect(new Set(proxy.callsOf('CreateAssetGroup').map((c) => c.idempotencyKey)).size).toBe(1);
  });

  it('sends nothing for an invalid form', async () => {
    expect((await createGroup(client, 'x'.repeat(65), '')).ok).toBe(false);
    expect(proxy.calls).toHaveLength(0);
  });

  it('shows a field refused by the proxy next to that field', async () => {
    proxy.failNext('CreateAssetGroup', { kind: 'status', status: 400, code: 'ValidationError', message: 'Name: must be 1 to 64 characters' });
    expect(await createGroup(client, 'Cats', '')).toEqual({ ok: false, problem: { field: 'name', message: 'Group name: must be 1 to 64 characters' } });
  });

  it('renames and clears the description with UpdateAssetGroup', async () => {
    proxy.seedGroup('g1', 'Cats', 'LivenessFace', 'old words');
    const group = await putGroup({ id: 'g1', name: 'Cats', description: 'old words', type: 'LivenessFace', usedAt: 7 });
    const result = await updateGroup(client, group, 'Kittens', '');
    expect(result).toEqual({ ok: true, value: { ...group, name: 'Kittens', description: '' } });
    expect(proxy.callsOf('UpdateAssetGroup')[0]!.body).toEqual({ Id: 'g1', Name: 'Kittens', Description: '' });
    expect(proxy.groups.get('g1')).toMatchObject({ Name: 'Kittens', Description: '' });
    expect(messages).toContainEqual({ type: 'arkbridge:groups-changed' });
  });

  it('deletes a group with its local asset records and default-group setting', async () => {
    proxy.seedGroup('g1');
    const group = await putGroup({ id: 'g1' });
    await putGroup({ id: 'g2' });
    const database = await db();
    await database.put('assets', assetRecord({ localId: 'l1', assetId: 'a1', groupId: 'g1' }));
    await database.put('assets', assetRecord({ localId: 'l2', assetId: 'a2', groupId: 'g2' }));
    await database.put('settings', 'g1', 'defaultGroupId');

    expect(await deleteGroup(client, group)).toEqual({ ok: true, value: undefined });

    expect(proxy.callsOf('DeleteAssetGroup')[0]!.body).toEqual({ Id: 'g1' });
    expect((await database.getAll('assets')).map((a) => a.localId)).toEqual(['l2']);
    expect((await database.getAll('groups')).map((g) => g.id)).toEqual(['g2']);
    expect(await database.get('settings', 'defaultGroupId')).toBeUndefined();
  });

  it('keeps the group when the delete fails, with a readable reason', async () => {
    const group = await putGroup({ id: 'g1' });
    proxy.failNext('DeleteAssetGroup', { kind: 'network' });
    const result = await deleteGroup(client, group);
    expect(result).toEqual({ ok: false, problem: { message: 'Cannot reach the proxy. Check your connection and try again.' } });
    expect(await (await db()).get('groups', 'g1')).toBeDefined();
  });

  it('marks the connection for reconnecting when the token is refused', async () => {
    await (await db()).put('settings', { proxyUrl: PROXY_URL, token: TOKEN }, 'connection');
    proxy.tokens.clear();
    const result = await createGroup(client, 'Cats', '');
    expect(result).toMatchObject({ ok: false, problem: { reconnect: true } });
    expect(await (await db()).get('settings', 'connection')).toMatchObject({ needsReconnect: true });
  });
});
