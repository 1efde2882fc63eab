import type { StorageLedger } from '../ledger/ledger-port';
import type { MediaEnv } from './media-env';
import { outputsPrefix, uploadsPrefix, withMetadata } from './media-ids';

/**
 * The scheduled cleanup (Cron Trigger, hourly): deletes uploads whose address expired more than
 * an hour ago, and kept outputs past their keep date, and takes them off their member's storage.
 * A deployment may use an R2 lifecycle rule instead (docs/media-store.md).
 */

/** Uploads outlive their address by this much, so that a download started just before expiry can finish. */
export const UPLOAD_GRACE_SECONDS = 3600;
/** Pages of 1,000 objects looked at per prefix and run: the next run goes on. */
const PAGES_PER_RUN = 20;

export interface CleanupReport {
  uploads: number;
  outputs: number;
  bytes: number;
}

export async function cleanMediaStore(env: MediaEnv, ledger: StorageLedger, nowSeconds = Math.floor(Date.now() / 1000)): Promise<CleanupReport> {
  const report: CleanupReport = { uploads: 0, outputs: 0, bytes: 0 };
  const freed = new Map<string, { uploads: number; outputs: number }>();
  for (const [prefix, field, dueAt] of [
    [uploadsPrefix(), 'expiresAt', UPLOAD_GRACE_SECONDS],
    [outputsPrefix(), 'keptUntil', 0],
  ] as const) {
    let cursor: string | undefined;
    for (let page = 0; page < PAGES_PER_RUN; page++) {
      const listed = await env.MEDIA.list(withMetadata({ prefix, cursor, limit: 1000 }));
      const expired = listed.objects.filter((o) => {
        const at = Number(o.customMetadata?.[field]);
        return Number.isFinite(at) && at > 0 && at + dueAt < nowSeconds;
      });
      if (expired.length) {
        await env.MEDIA.delete(expired.map((o) => o.key));
        for (const o of expired) {
          const member = o.key.split('/')[1]!;
          const kind = prefix === uploadsPrefix() ? 'uploads' : 'outputs';
          const entry = freed.get(member) ?? { uploads: 0, outputs: 0 };
          entry[kind] += o.size;
          freed.set(member, entry);
          report[kind]++;
          report.bytes += o.size;
        }
      }
      if (!listed.truncated) break;
      cursor = listed.cursor;
    }
  }
  for (const [member, bytes] of freed) {
    if (bytes.uploads) await ledger.addStorage(member, 'uploads', -bytes.uploads);
    if (bytes.outputs) await ledger.addStorage(member, 'outputs', -bytes.outputs);
  }
  return report;
}
