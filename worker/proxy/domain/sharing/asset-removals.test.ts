import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { memberObject } from '../../objects/handles';
import { api, call, proxyEnv, type Member } from '../../testing/proxy-test-client';
import { asset, group, member, memberRows, noUpstream } from '../../testing/proxy-test-steps';
import { libraryRows, shared } from '../../testing/sharing-test-steps';
import { noteRemoval } from './asset-removals';

/**
 * Deleted assets and lost roles (docs/team-library.md): an asset deleted through the proxy, by its
 * owner or an editor, leaves `POST /proxy/sources` and `POST /proxy/assets/statuses` for everyone at
 * once, and the owner's object stops following it; a member without a role on the group learns
 * nothing of its assets from them, not even of those they added while they were an editor.
 */

const SOURCE = { pageUrl: 'https://example.com/kites', pageTitle: 'Kites', capturedAt: '2026-11-26T09:30:00.000Z', how: 'link' };

const statuses = async (m: Member, ids: string[]) => (await call(m, 'POST', '/proxy/assets/statuses', { ids })).body.assets.map((a: { id: string }) => a.id).sort();
const sources = async (m: Member, ids: string[]) => Object.keys((await call(m, 'POST', '/proxy/sources', { ids })).body.sources).sort();
const followed = (m: Member) => memberRows<{ id: string }>(m, 'SELECT id FROM followed_assets UNION SELECT id FROM asset_outcomes').then((r) => r.map((x) => x.id));
const deleted = async (m: Member, id: string) => expect((await api(m, 'DeleteAsset', { Id: id })).error).toBeUndefined();

async function setSource(owner: Member, assetId: string): Promise<void> {
  expect((await call(owner, 'PUT', `/proxy/assets/${assetId}/source`, SOURCE)).status).toBe(200);
}

/** An owner's group shared with an editor: `x` added by the owner, `y` by the editor, both with a source. */
async function sharedGroup() {
  const owner = await member('owner');
  const editor = await member('editor');
  const g = await group(owner);
  await shared(owner, g, { members: { [editor.id]: 'editor' } });
  const x = await asset(owner, g, 'by owner');
  const y = await asset(editor, g, 'by editor');
  await setSource(owner, x);
  await setSource(owner, y);
  // Each follows what they created, and both see both sources.
  expect(await statuses(owner, [x, y])).toEqual([x]);
  expect(await statuses(editor, [x, y])).toEqual([y]);
  expect(await sources(owner, [x, y])).toEqual([x, y].sort());
  expect(await sources(editor, [x, y])).toEqual([x, y].sort());
  return { owner, editor, g, x, y };
}

describe('deleted assets and lost roles', () => {
  it('the owner deletes: gone for the owner and for the editor, from statuses and sources', async () => {
    const { owner, editor, x, y } = await sharedGroup();
    await deleted(owner, x);
    await deleted(owner, y);
    for (const m of [owner, editor]) {
      expect(await statuses(m, [x, y]), m.name).toEqual([]);
      expect(await sources(m, [x, y]), m.name).toEqual([]);
    }
  });

  it("an editor deletes the owner's asset: gone for the owner at once, and the owner's object no longer follows it", async () => {
    const { owner, editor, x, y } = await sharedGroup();
    expect(await followed(owner)).toContain(x);
    await deleted(editor, x);
    expect(await noUpstream(() => statuses(owner, [x, y]))).toEqual([]);
    expect(await sources(owner, [x, y])).toEqual([y]);
    expect(await sources(editor, [x, y])).toEqual([y]);
    // Neither its status nor its asset.* event: the follow is gone, with the ownership and the source.
    expect(await followed(owner)).not.toContain(x);
    expect(await memberRows(owner, "SELECT id FROM owned WHERE kind = 'asset' AND id = ?", x)).toEqual([]);
    expect(await memberRows(owner, 'SELECT asset_id FROM asset_sources WHERE asset_id = ?', x)).toEqual([]);
    expect(await memberRows(editor, 'SELECT * FROM asset_removals')).toEqual([]);
  });

  it('the owner deletes the group: its assets are gone for the owner and for the editor', async () => {
    const { owner, editor, g, x, y } = await sharedGroup();
    expect((await api(owner, 'DeleteAssetGroup', { Id: g })).error).toBeUndefined();
    for (const m of [owner, editor]) {
      expect(await statuses(m, [x, y]), m.name).toEqual([]);
      expect(await sources(m, [x, y]), m.name).toEqual([]);
    }
  });

  it('a role taken away: the ex-editor learns nothing of the asset they added nor of the others; the owner still sees them', async () => {
    const { owner, editor, g, x, y } = await sharedGroup();
    await shared(owner, g, { members: { [editor.id]: 'none' } });
    expect(await noUpstream(() => statuses(editor, [x, y]))).toEqual([]);
    expect(await sources(editor, [x, y])).toEqual([]);
    expect(await statuses(owner, [x, y])).toEqual([x]);
    expect(await sources(owner, [x, y])).toEqual([x, y].sort());
    // Given back: seen again (the role decides, nothing was thrown away).
    await shared(owner, g, { members: { [editor.id]: 'editor' } });
    expect(await statuses(editor, [x, y])).toEqual([y]);
  });

  it('an unshared group: the same', async () => {
    const owner = await member('owner');
    const editor = await member('editor');
    const g = await group(owner);
    await shared(owner, g, { team: 'editor' });
    const x = await asset(owner, g, 'by owner');
    const y = await asset(editor, g, 'by editor');
    await setSource(owner, y);
    expect(await statuses(editor, [x, y])).toEqual([y]);
    await shared(owner, g, { team: 'none' });
    expect(await statuses(editor, [x, y])).toEqual([]);
    expect(await sources(editor, [x, y])).toEqual([]);
    expect(await statuses(owner, [x, y])).toEqual([x]);
    expect(await sources(owner, [x, y])).toEqual([y]);
  });

  it("a stop of the proxy after the service deleted an editor's delete: the editor's alarm finishes it", async () => {
    const { owner, editor, x } = await sharedGroup();
    // What the step that saw the service's answer leaves when the proxy stops right after it.
    await runInDurableObject(memberObject(proxyEnv, editor.id), (_instance, state) => noteRemoval(state.storage.sql, x, null));
    await abortAllDurableObjects();
    expect(await statuses(owner, [x])).toEqual([x]);
    const alarm = await runInDurableObject(memberObject(proxyEnv, editor.id), async (instance, state) => {
      const at = await state.storage.getAlarm();
      await instance.alarm();
      return at;
    });
    expect(alarm, 'the note arms the alarm').not.toBeNull();
    expect(await statuses(owner, [x])).toEqual([]);
    expect(await sources(owner, [x])).toEqual([]);
    expect(await libraryRows('SELECT id FROM shared_assets WHERE id = ?', x)).toEqual([]);
    expect(await memberRows(editor, 'SELECT * FROM asset_removals')).toEqual([]);
  });
});
