import { MEMBER_ACCESS_KEYS_MAX, randomHex, SECRET_ACCESS_KEY_PREFIX, type AccessKeyInfo, type CreatedAccessKey } from '../../../../shared';
import { deriveSigningKey } from '../../infra/signing/verifier';
import { seal, sealingKey, unseal } from './access-key-secrets';

/**
 * A member's access keys (docs/identity.md): key pairs for scripts that sign `/api/v3` calls as
 * the service's SDK does. Kept in the member's own object, which decides every request of the
 * member: a key deleted here is refused from the next request on. The secret is stored only
 * encrypted (access-key-secrets.ts); the day's signing key derived from it is kept in this object's
 * memory per access key and date, so a verified call costs no decryption once a day.
 */

export const ACCESS_KEYS_SCHEMA = `
CREATE TABLE IF NOT EXISTS access_keys (
  id TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  access_key_id TEXT NOT NULL UNIQUE,
  secret_sealed TEXT NOT NULL,     -- AES-GCM under ACCESS_KEY_SECRET; the secret itself is never stored
  created_at INTEGER NOT NULL,
  last_used_at INTEGER             -- ms, written at most once per LAST_USED_STEP_MS
);
`;

/** How stale `lastUsedAt` may be, as for tokens: written when at least this old. */
const LAST_USED_STEP_MS = 60_000;
/** Signing keys kept: a day or two of each of the member's keys; past it the cache starts again. */
const MAX_CACHED_KEYS = 2 * MEMBER_ACCESS_KEYS_MAX;

export type AccessKeyCall = { kind: 'create'; label: string } | { kind: 'list' } | { kind: 'delete'; id: string };
/** `full`: the member holds the most keys; `not_configured`: no ACCESS_KEY_SECRET; a boolean: whether a delete found the key. */
export type AccessKeyAnswer = CreatedAccessKey | { keys: AccessKeyInfo[] } | boolean | 'full' | 'not_configured';

interface Held {
  id: string;
  sealed: string;
  lastUsedAt: number | null;
}

const base64url = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class AccessKeyBook {
  readonly #sql: SqlStorage;
  /** ACCESS_KEY_SECRET when configured (infra/settings/proxy-settings.ts). */
  readonly #secret: () => string | null;
  #byAccessKeyId: Map<string, Held> | undefined;
  #sealing: { secret: string; key: Promise<CryptoKey> } | undefined;
  readonly #signingKeys = new Map<string, Uint8Array<ArrayBuffer>>();

  constructor(sql: SqlStorage, secret: () => string | null) {
    this.#sql = sql;
    this.#secret = secret;
    sql.exec(ACCESS_KEYS_SCHEMA);
  }

  #held(): Map<string, Held> {
    if (!this.#byAccessKeyId) {
      const rows = this.#sql.exec<{ id: string; access_key_id: string; secret_sealed: string; last_used_at: number | null }>('SELECT id, access_key_id, secret_sealed, last_used_at FROM access_keys').toArray();
      this.#byAccessKeyId = new Map(rows.map((r) => [r.access_key_id, { id: r.id, sealed: r.secret_sealed, lastUsedAt: r.last_used_at }]));
    }
    return this.#byAccessKeyId;
  }

  /** Every change drops the copies in memory, signing keys included: a deleted key is refused at once. */
  #changed(): void {
    this.#byAccessKeyId = undefined;
    this.#signingKeys.clear();
  }

  #sealingKey(): Promise<CryptoKey> | null {
    const secret = this.#secret();
    if (!secret) return null;
    if (this.#sealing?.secret !== secret) this.#sealing = { secret, key: sealingKey(secret) };
    return this.#sealing.key;
  }

  /** The member's create, list or delete (`/proxy/access-keys`, the admin's routes). */
  async call(memberId: string, call: AccessKeyCall, now: number): Promise<AccessKeyAnswer> {
    if (call.kind === 'list') return { keys: this.list() };
    if (call.kind === 'delete') return this.remove(call.id);
    const key = this.#sealingKey();
    if (!key) return 'not_configured';
    if (this.#held().size >= MEMBER_ACCESS_KEYS_MAX) return 'full';
    const id = `k${randomHex(8)}`;
    const accessKeyId = `AKAB${memberId}K${randomHex(8).toUpperCase()}`;
    const secretAccessKey = `${SECRET_ACCESS_KEY_PREFIX}${base64url(crypto.getRandomValues(new Uint8Array(30)))}`;
    const sealed = await seal(await key, memberId, accessKeyId, secretAccessKey);
    // Counted again after the await: another create of the member may have run meanwhile.
    if (this.#held().size >= MEMBER_ACCESS_KEYS_MAX) return 'full';
    this.#sql.exec('INSERT INTO access_keys (id, label, access_key_id, secret_sealed, created_at) VALUES (?, ?, ?, ?, ?)', id, call.label, accessKeyId, sealed, now);
    this.#changed();
    return { id, label: call.label, accessKeyId, secretAccessKey, createdAt: iso(now)! };
  }

  /** Oldest first; never a secret. */
  list(): AccessKeyInfo[] {
    return this.#sql
      .exec<{ id: string; label: string; access_key_id: string; created_at: number; last_used_at: number | null }>('SELECT id, label, access_key_id, created_at, last_used_at FROM access_keys ORDER BY created_at, id')
      .toArray()
      .map((r) => ({ id: r.id, label: r.label, accessKeyId: r.access_key_id, createdAt: iso(r.created_at)!, lastUsedAt: iso(r.last_used_at) }));
  }

  remove(id: string): boolean {
    const removed = this.#sql.exec('DELETE FROM access_keys WHERE id = ?', id).rowsWritten > 0;
    this.#changed();
    return removed;
  }

  /** Every key gone: the member was revoked or rotated. */
  removeAll(): void {
    this.#sql.exec('DELETE FROM access_keys');
    this.#changed();
  }

  /**
   * The day's signing key of one of the member's keys (the verifier's lookup), or undefined for no
   * such key or one that does not decrypt under the ACCESS_KEY_SECRET in force.
   */
  async signingKey(memberId: string, accessKeyId: string, date: string, region: string, service: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const cacheKey = `${accessKeyId} ${date} ${region} ${service}`;
    const cached = this.#signingKeys.get(cacheKey);
    if (cached) return cached;
    const held = this.#held().get(accessKeyId);
    const sealing = held && this.#sealingKey();
    if (!held || !sealing) return undefined;
    const secret = await unseal(await sealing, memberId, accessKeyId, held.sealed);
    if (secret === null) return undefined;
    const key = await deriveSigningKey(secret, date, region, service);
    // Stored only while the key still exists: a delete during the awaits wins.
    if (!this.#held().has(accessKeyId)) return undefined;
    if (this.#signingKeys.size >= MAX_CACHED_KEYS) this.#signingKeys.clear();
    this.#signingKeys.set(cacheKey, key);
    return key;
  }

  /** Notes a verified use (written at most once a minute per key). */
  used(accessKeyId: string, now: number): void {
    const held = this.#held().get(accessKeyId);
    if (!held || (held.lastUsedAt !== null && now - held.lastUsedAt < LAST_USED_STEP_MS)) return;
    held.lastUsedAt = now;
    this.#sql.exec('UPDATE access_keys SET last_used_at = ? WHERE access_key_id = ?', now, accessKeyId);
  }
}
