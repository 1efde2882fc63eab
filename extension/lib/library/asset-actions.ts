import { check, librarySchemas, LIMITS } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { isGone } from '@/lib/proxy/api-failure';
import { type ActionResult, notConnected, problemOf } from '@/lib/proxy/failure-message';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { assetStore } from '@/lib/storage/asset-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { announceChange } from '@/lib/storage/store-changes';

export type AssetField = 'name';
const FIELDS: Record<string, AssetField> = { Name: 'name' };
const labels = () => ({ name: t('library.asset.name') });

/** Checks a new asset name with the shared UpdateAsset schema; the message names the field. */
export function checkAssetName(name: string): ActionResult<string, AssetField> {
  const value = name.trim();
  const checked = check(librarySchemas().UpdateAsset, { Id: 'x', Name: value });
  if (checked.ok) return { ok: true, value };
  return { ok: false, problem: { field: 'name', message: t('library.asset.nameInvalid', { max: LIMITS.assetNameMax }) } };
}

/** Renames an asset (UpdateAsset), then its local record. */
export async function renameAsset(client: ProxyClient, asset: AssetRecord, name: string): Promise<ActionResult<AssetRecord, AssetField>> {
  const checked = checkAssetName(name);
  if (!checked.ok) return checked;
  if (!asset.assetId) return { ok: false, problem: { message: t('library.asset.notCreated') } };
  try {
    await client.library('UpdateAsset', { Id: asset.assetId, Name: checked.value });
  } catch (error) {
    return { ok: false, problem: await problemOf(error, { fields: FIELDS, labels: labels() }) };
  }
  const current = (await assetStore.get(asset.localId)) ?? asset;
  const record: AssetRecord = { ...current, name: checked.value, updatedAt: Date.now() };
  await assetStore.put(record);
  announceChange('assets');
  return { ok: true, value: record };
}

/**
 * Deletes an asset (DeleteAsset) and its local record. A record the service never accepted
 * (refused before creation) is only removed locally (no client needed); one still being sent
 * cannot be deleted yet.
 */
export async function deleteAsset(client: ProxyClient | null, asset: AssetRecord): Promise<ActionResult<void, AssetField>> {
  if (asset.status === 'Queued') return { ok: false, problem: { message: t('library.asset.stillSending') } };
  if (asset.assetId) {
    if (!client) return { ok: false, problem: notConnected() };
    try {
      await client.library('DeleteAsset', { Id: asset.assetId });
    } catch (error) {
      if (!isGone(error)) return { ok: false, problem: await problemOf(error, { fields: FIELDS, labels: labels() }) };
    }
  }
  await assetStore.remove(asset.localId);
  announceChange('assets');
  return { ok: true, value: undefined };
}
