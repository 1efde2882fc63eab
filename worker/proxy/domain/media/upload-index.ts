/**
 * The member's uploads by content (docs/media-store.md#uploads): SHA-256 → upload id, kept in the
 * member's own object, so that the same bytes uploaded again answer the upload already kept
 * instead of a second copy. The object answers one call at a time, so two identical uploads at
 * once are decided one after the other: the first is recorded, the second finds it.
 */

export const UPLOAD_INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS upload_hashes (
  sha256 TEXT PRIMARY KEY,
  id TEXT NOT NULL,            -- the upload's media id
  expires_at INTEGER NOT NULL); -- unix seconds: its address's expiry
CREATE INDEX IF NOT EXISTS upload_hashes_id ON upload_hashes (id);
CREATE INDEX IF NOT EXISTS upload_hashes_expiry ON upload_hashes (expires_at);
`;

/**
 * An upload is answered again only while this much of its address's life is left, so that a
 * client handed it has time to use it (the service downloads it at a create).
 */
export const REUSE_MARGIN_SECONDS = 600;

/**
 * Records `id` as the member's upload of these bytes, unless a live one is recorded already:
 * answers that one's id (the caller then drops its own copy), or null when `id` is now the one.
 * `replace`: the recorded one turned out to be gone from the store; `id` takes its place.
 */
export function claimUpload(sql: SqlStorage, sha256: string, id: string, expiresAt: number, nowSeconds: number, replace = false): string | null {
  sql.exec('DELETE FROM upload_hashes WHERE expires_at <= ?', nowSeconds);
  const row = sql.exec<{ id: string; expires_at: number }>('SELECT id, expires_at FROM upload_hashes WHERE sha256 = ?', sha256).toArray()[0];
  if (!replace && row && row.id !== id && row.expires_at > nowSeconds + REUSE_MARGIN_SECONDS) return row.id;
  sql.exec('INSERT OR REPLACE INTO upload_hashes (sha256, id, expires_at) VALUES (?, ?, ?)', sha256, id, expiresAt);
  return null;
}

/** The upload was deleted: these bytes uploaded again are a new upload. */
export function forgetUpload(sql: SqlStorage, id: string): void {
  sql.exec('DELETE FROM upload_hashes WHERE id = ?', id);
}

/** What the upload handler asks of the member's object (objects/member-state.ts answers it). */
export interface UploadIndexPort {
  claimUpload(sha256: string, id: string, expiresAt: number, replace?: boolean): Promise<string | null>;
  forgetUpload(id: string): Promise<unknown>;
}
