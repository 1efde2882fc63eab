import { DurableObject } from 'cloudflare:workers';
import type { ProxySettings } from '../proxy-settings';
import type { MemberState, Profile } from './member-state';
import { hashToken, newMemberId, newToken } from './token';
import { closeSession, noteSigninFailure, openSession, readSession, SESSION_SCHEMA, signinAllowed, type Session } from '../console/console-sessions';

/**
 * The list of members, for the admin API only: never on a member's request path (each member's
 * token routes straight to that member's object).
 */
/** What the directory needs: the members' namespace (typed here, not through env.ts, to keep imports one-way). */
type DirectoryEnv = ProxySettings & { MEMBERS: DurableObjectNamespace<MemberState> };

export class MemberDirectory extends DurableObject<DirectoryEnv> {
  constructor(state: DurableObjectState, env: DirectoryEnv) {
    super(state, env);
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS members (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)');
    this.ctx.storage.sql.exec(SESSION_SCHEMA);
  }

  // --- console sessions (worker/proxy/console/console-sessions.ts) ---

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
    return this.env.MEMBERS.get(this.env.MEMBERS.idFromName(id));
  }

  async add(name: string): Promise<{ id: string; name: string; token: string }> {
    const id = newMemberId();
    const token = newToken(id);
    await this.#member(id).init(id, name, await hashToken(token));
    this.ctx.storage.sql.exec('INSERT INTO members VALUES (?, ?)', id, Date.now());
    return { id, name, token };
  }

  /** Whether a member of this id was ever added (revoked ones included). */
  exists(id: string): boolean {
    return this.#known(id);
  }

  #known(id: string): boolean {
    return this.ctx.storage.sql.exec('SELECT 1 FROM members WHERE id = ?', id).toArray().length > 0;
  }

  async list(): Promise<Profile[]> {
    const ids = this.ctx.storage.sql.exec('SELECT id FROM members ORDER BY created_at').toArray().map((r) => String(r.id));
    const profiles = await Promise.all(ids.map((id) => this.#member(id).profile()));
    return profiles.filter((p): p is NonNullable<typeof p> => p !== null);
  }

  /** False when there is no such active member. */
  async revoke(id: string): Promise<boolean> {
    return this.#known(id) && (await this.#member(id).revoke());
  }

  /** The new token, or null when there is no such active member. */
  async rotate(id: string): Promise<string | null> {
    if (!this.#known(id)) return null;
    const token = newToken(id);
    return (await this.#member(id).rotate(await hashToken(token))) ? token : null;
  }
}
