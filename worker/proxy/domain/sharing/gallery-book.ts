import type { GalleryItem } from '../../../../shared';
import { mediaUrlTtlSeconds, type ProxySettings } from '../../infra/settings/proxy-settings';
import { signedAddress } from '../media/media-address';
import { outputId } from '../media/media-ids';
import type { GalleryEntry, Unpublished } from './sharing-ports';

/**
 * The team gallery (docs/team-library.md): finished videos members chose to show the team, newest
 * first, each with the create body it was made from and a fresh signed address of its kept copy.
 */

type GalleryRow = {
  task_id: string;
  member: string;
  member_name: string;
  model: string;
  request: string | null;
  cost: number;
  currency: string;
  kept_until: number | null;
  published_at: number;
};

/** A page's `next`: where the next page starts (`<published ms>~<task id>`). */
const cursorOf = (row: GalleryRow) => `${row.published_at}~${row.task_id}`;

function itemOf(row: GalleryRow, env: ProxySettings, origin: string): GalleryItem {
  const now = Math.floor(Date.now() / 1000);
  const id = outputId(row.member, row.task_id);
  const kept = row.kept_until !== null && row.kept_until > now && id && env.MEDIA_URL_SECRET ? row.kept_until : null;
  return {
    taskId: row.task_id,
    member: { id: row.member, name: row.member_name },
    model: row.model,
    request: row.request === null ? null : (JSON.parse(row.request) as Record<string, unknown>),
    cost: row.cost,
    currency: row.currency,
    keptUrl: kept && id ? signedAddress(env.MEDIA_URL_SECRET!, origin, id, Math.min(kept, now + mediaUrlTtlSeconds(env))) : null,
    keptUntil: kept,
    publishedAt: new Date(row.published_at).toISOString(),
  };
}

const rowOf = (sql: SqlStorage, taskId: string) => sql.exec<GalleryRow>('SELECT * FROM gallery WHERE task_id = ?', taskId).toArray()[0];

/** Publishes a task (once: publishing it again answers the item as it is). */
export function publish(sql: SqlStorage, env: ProxySettings, entry: GalleryEntry, origin: string, now: number): { item: GalleryItem; created: boolean } {
  const existing = rowOf(sql, entry.taskId);
  if (existing) return { item: itemOf(existing, env, origin), created: false };
  sql.exec(
    'INSERT INTO gallery (task_id, member, member_name, model, request, cost, currency, kept_until, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    entry.taskId, entry.member.id, entry.member.name, entry.model, entry.request === null ? null : JSON.stringify(entry.request), entry.cost, entry.currency, entry.keptUntil, now,
  );
  return { item: itemOf(rowOf(sql, entry.taskId)!, env, origin), created: true };
}

export function page(sql: SqlStorage, env: ProxySettings, limit: number, before: string | null, origin: string): { items: GalleryItem[]; next: string | null } {
  const [at, task] = before ? [Number(before.slice(0, before.indexOf('~'))), before.slice(before.indexOf('~') + 1)] : [Number.MAX_SAFE_INTEGER, ''];
  const rows = sql
    .exec<GalleryRow>('SELECT * FROM gallery WHERE published_at < ? OR (published_at = ? AND task_id < ?) ORDER BY published_at DESC, task_id DESC LIMIT ?', at, at, task, limit + 1)
    .toArray();
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  return { items: shown.map((r) => itemOf(r, env, origin)), next: more ? cursorOf(shown[shown.length - 1]!) : null };
}

/** Removes an item: by its publisher (`by`), or by the admin (`by` null). */
export function unpublish(sql: SqlStorage, taskId: string, by: string | null): Unpublished {
  const row = rowOf(sql, taskId);
  if (!row) return 'not_found';
  if (by !== null && row.member !== by) return 'forbidden';
  sql.exec('DELETE FROM gallery WHERE task_id = ?', taskId);
  return 'deleted';
}

/** The publisher deleted the kept copy: the item stays, without an address. */
export function forgetKept(sql: SqlStorage, taskId: string): void {
  sql.exec('UPDATE gallery SET kept_until = NULL WHERE task_id = ?', taskId);
}
