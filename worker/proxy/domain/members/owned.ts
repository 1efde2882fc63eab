/** The ids a member obtained: only these may be used or listed through the proxy. */

export type OwnedKind = 'group' | 'asset' | 'task';

export function owns(sql: SqlStorage, kind: OwnedKind, id: string): boolean {
  return sql.exec('SELECT 1 FROM owned WHERE kind = ? AND id = ?', kind, id).toArray().length > 0;
}

export function own(sql: SqlStorage, kind: OwnedKind, id: string, parent: string | null = null): void {
  sql.exec('INSERT OR IGNORE INTO owned VALUES (?, ?, ?, ?)', kind, id, parent, Date.now());
}

export function disown(sql: SqlStorage, kind: OwnedKind, id: string): void {
  sql.exec('DELETE FROM owned WHERE kind = ? AND id = ?', kind, id);
  // A deleted group takes its assets with it.
  if (kind === 'group') sql.exec("DELETE FROM owned WHERE kind = 'asset' AND parent = ?", id);
}

export function ownedIds(sql: SqlStorage, kind: OwnedKind): string[] {
  return sql.exec('SELECT id FROM owned WHERE kind = ?', kind).toArray().map((r) => String(r.id));
}
