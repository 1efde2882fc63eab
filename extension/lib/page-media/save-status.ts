import type { SavePageMediaResult } from '@/lib/messaging/extension-messages';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/** Where a saved item stands in the panel: `saving` until the background answers, then its record's state. */
export type SaveStatus =
  | { kind: 'saving' }
  | { kind: 'queued' | 'uploading' | 'processing' | 'active' | 'duplicate' }
  | { kind: 'failed'; message: string };

/**
 * The status of an item from the background's answer (none yet: saving) and its record in
 * IndexedDB, which the background and the queue update (read again on every change announced).
 */
export function saveStatusOf(result: SavePageMediaResult | undefined, record: AssetRecord | undefined): SaveStatus {
  if (!result) return { kind: 'saving' };
  if (!result.ok && !result.duplicate) return { kind: 'failed', message: result.message };
  if (!result.ok) return record?.status === 'Failed' ? { kind: 'failed', message: record.error ?? '' } : { kind: 'duplicate' };
  if (!record) return { kind: 'queued' };
  switch (record.status) {
    case 'Active':
      return { kind: 'active' };
    case 'Failed':
      return { kind: 'failed', message: record.error ?? '' };
    case 'Processing':
      return { kind: 'processing' };
    default:
      return record.capture?.how === 'upload' && record.capture.stage === 'uploading' ? { kind: 'uploading' } : { kind: 'queued' };
  }
}
