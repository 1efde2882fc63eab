import { DurableObject } from 'cloudflare:workers';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { memberPort } from './object-stubs';
import type { MemberProfile as Profile, MemberScope, MemberScopeChange } from '../../../shared';
import { emailHolder, enrolmentEmail, identityOf, memberByEmail, migrateRosterIdentity, nameFromEmail, writeEmail, writeScopeCopy } from '../domain/members/roster-identity';
import { hashToken, newMemberId, newToken } from '../domain/members/token';
import { closeSession, noteSigninFailure, openSession, readSession, SESSION_SCHEMA, signinAllowed, type Session } from '../domain/admin/console-sessions';

/** Members whose profile an older directory did not keep, read from their objects this many at a time. */
const BACKFILL_BATCH = 50;

/**
 * The list of members, for the admin API only: never on a member's request path (each member's
 * token routes straight to that member's object). It keeps each member's name, creation time and
 * whether it is revoked, so that listing the team is one query, not a call to every member's
 * object. Those facts change only through this object (add, revoke; names never change).
 */
export class MemberDirectory extends DurableObject<ProxyEnv> {
  constructor(state: DurableObjectState, env: ProxyEnv) {
    super(state, env);
    const sql = this.ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS members (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)');
    // Added after wave 1; a NULL name marks a row whose profile is still in the member's object only (list backfills it).
    const columns = new Set(sql.exec("SELECT name FROM pragma_table_info('members')").toArray().map((r) => String(r.name)));
    if (!columns.has('name')) sql.exec('ALTER TABLE members ADD COLUMN name TEXT');
    if (!columns.has('revoked')) sql.exec('ALTER TABLE members ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0');
    migrateRosterIdentity(sql);
    sql.exec(SESSION_SCHEMA);
  }

  // --- console sessions (domain/admin/console-sessions.ts) ---

  openSession(actor: string): Session & { id: string } {
    return openSession(this.ctx.storage.sql, actor, Date.now());
  }

  session(id: string): Session | null {
    return readSession(this.ctx.storage.sql, id, Date.now());
  }

  closeSession(id: string): void {
    closeSession(this.ctx.storage.sql, id);
  }

  /** A sign-in attempt from `source`: 'throttled' while too many failed recently, else what `ok` says, failures counted. */
  signinAttempt(source: string, ok: boolean): 'ok' | 'failed' | 'throttled' {
    const now = Date.now();
    if (!signinAllowed(this.ctx.storage.sql, source, now)) return 'throttled';
    if (ok) return 'ok';
    noteSigninFailure(this.ctx.storage.sql, source, now);
    return 'failed';
  }

  #member(id: string) {
    return memberPort(this.env, id);
  }

  /** A new member and their first token (labelled `label`); `email_taken` when an active member has that email. */
  async add(name: string, email: string | null = null, label?: string): Promise<{ id: string; name: string; token: string; email?: string } | 'email_taken'> {
    const sql = this.ctx.storage.sql;
    if (email !== null && emailHolder(sql, email)) return 'email_taken';
    const id = newMemberId();
    const token = newToken(id);
    // The row first, with its email, before the member's object is awaited: an add (or a sign-in's
    // enrolment) of the same email meanwhile finds it taken. Named once the object is made.
    sql.exec('INSERT INTO members (id, created_at, name, revoked) VALUES (?, ?, NULL, 0)', id, Date.now());
    writeEmail(sql, id, email);
    let profile: Profile;
    try {
      profile = await this.#member(id).init(id, name, await hashToken(token), label);
    } catch (error) {
      sql.exec('DELETE FROM members WHERE id = ?', id);
      throw error;
    }
    sql.exec('UPDATE members SET name = ?, created_at = ? WHERE id = ?', name, Date.parse(profile.createdAt), id);
    return { id, name, token, ...(email === null ? {} : { email }) };
  }

  /** Sets (or clears) an active member's email: the profile, `email_taken`, or null for no such active member. */
  async setEmail(id: string, email: string | null): Promise<Profile | 'email_taken' | null> {
    if (!this.#active(id)) return null;
    if (email !== null && emailHolder(this.ctx.storage.sql, email, id)) return 'email_taken';
    writeEmail(this.ctx.storage.sql, id, email);
    return (await this.list()).find((p) => p.id === id) ?? null;
  }

  /** The changes of scope under way, one after another per member (so the copy ends as the member's object does). */
  #scopeChanges = new Map<string, Promise<unknown>>();

  /** Changes an active member's scope in their object, then the directory's copy: the scope, or null for no such active member. */
  setScope(id: string, change: MemberScopeChange): Promise<MemberScope | null> {
    const previous = this.#scopeChanges.get(id) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (!this.#active(id)) return null;
      const scope = await this.#member(id).setScope(change);
      if (scope) writeScopeCopy(this.ctx.storage.sql, id, scope);
      return scope;
    });
    const settled = next.catch(() => undefined);
    this.#scopeChanges.set(id, settled);
    void settled.then(() => this.#scopeChanges.get(id) === settled && this.#scopeChanges.delete(id));
    return next;
  }

  /**
   * Member sign-in (docs/identity.md): a new token, labelled `label`, for the member with this email;
   * with `enrol`, an unknown email becomes a new member. Why not otherwise.
   */
  async signIn(email: string, label: string, enrol: boolean): Promise<
    { id: string; token: string; enrolled: boolean } | { refused: 'unknown' | 'revoked' | 'expired' | 'full' | 'email' }
  > {
    const found = memberByEmail(this.ctx.storage.sql, email);
    if (found?.revoked) return { refused: 'revoked' };
    if (!found) {
      if (!enrol) return { refused: 'unknown' };
      const checked = enrolmentEmail(email);
      if (!checked.ok) return { refused: 'email' };
      const added = await this.add(nameFromEmail(checked.email), checked.email, label);
      return added === 'email_taken' ? { refused: 'unknown' } : { id: added.id, token: added.token, enrolled: true };
    }
    const minted = await this.#member(found.id).mintToken(label);
    return typeof minted === 'string' ? { refused: minted === 'revoked' ? 'revoked' : minted } : { id: found.id, token: minted.token, enrolled: false };
  }

  #active(id: string): boolean {
    return this.ctx.storage.sql.exec('SELECT 1 FROM members WHERE id = ? AND revoked = 0 AND name IS NOT NULL', id).toArray().length > 0;
  }

  /** Whether a member of this id was ever added (revoked ones included). */
  exists(id: string): boolean {
    return this.#known(id);
  }

  #known(id: string): boolean {
    return this.ctx.storage.sql.exec('SELECT 1 FROM members WHERE id = ?', id).toArray().length > 0;
  }

  async list(): Promise<Profile[]> {
    await this.#backfill();
    return this.ctx.storage.sql
      .exec<{ id: string; name: string; created_at: number; revoked: number; email: string | null; scope_models: string | null; scope_expires_at: number | null }>(
        'SELECT id, name, created_at, revoked, email, scope_models, scope_expires_at FROM members WHERE name IS NOT NULL ORDER BY created_at, id',
      )
      .toArray()
      .map((r) => ({ id: r.id, name: r.name, createdAt: new Date(r.created_at).toISOString(), revoked: r.revoked === 1, ...identityOf(r) }));
  }

  /** Copies the profiles an older directory did not keep from the members' objects, once. */
  async #backfill(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const missing = sql.exec<{ id: string }>('SELECT id FROM members WHERE name IS NULL').toArray().map((r) => r.id);
    for (let i = 0; i < missing.length; i += BACKFILL_BATCH) {
      const profiles = await Promise.all(missing.slice(i, i + BACKFILL_BATCH).map((id) => this.#member(id).profile()));
      for (const p of profiles) {
        // A member object without a profile (never initialised) stays out of the list, as before.
        if (p) sql.exec('UPDATE members SET name = ?, created_at = ?, revoked = ? WHERE id = ?', p.name, Date.parse(p.createdAt), p.revoked ? 1 : 0, p.id);
        if (p?.scope) writeScopeCopy(sql, p.id, p.scope);
      }
    }
  }

  /** False when there is no such active member. */
  async revoke(id: string): Promise<boolean> {
    if (!this.#known(id)) return false;
    const done = await this.#member(id).revoke();
    // Whatever the answer, the member is not active now: a retry mends a row a crash left behind.
    this.ctx.storage.sql.exec('UPDATE members SET revoked = 1 WHERE id = ?', id);
    return done;
  }

  /** The new token, or null when there is no such active member. */
  async rotate(id: string): Promise<string | null> {
    if (!this.#known(id)) return null;
    const token = newToken(id);
    return (await this.#member(id).rotate(await hashToken(token))) ? token : null;
  }
}
