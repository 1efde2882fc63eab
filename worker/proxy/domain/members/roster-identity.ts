import { check, cleanLabel, cutLabel, MEMBER_NAME_MAX, memberEmailSchema, OPEN_SCOPE, type MemberScope } from '../../../../shared';

/**
 * What the member directory keeps of each member's identity beside name and state (docs/identity.md):
 * the email Cloudflare Access names them by, compared without letter case, and a copy of their
 * scope for the admin's list. The member's own object holds the scope that decides requests; the
 * copy is written after it, by the same change.
 */

/** Adds the identity columns to a directory from before them. */
export function migrateRosterIdentity(sql: SqlStorage): void {
  const columns = new Set(sql.exec("SELECT name FROM pragma_table_info('members')").toArray().map((r) => String(r.name)));
  if (!columns.has('email')) sql.exec('ALTER TABLE members ADD COLUMN email TEXT');
  // The email as compared: lower case (Access and people differ in letter case, never in meaning).
  if (!columns.has('email_key')) sql.exec('ALTER TABLE members ADD COLUMN email_key TEXT');
  if (!columns.has('scope_models')) sql.exec('ALTER TABLE members ADD COLUMN scope_models TEXT');
  if (!columns.has('scope_expires_at')) sql.exec('ALTER TABLE members ADD COLUMN scope_expires_at INTEGER');
  sql.exec('CREATE INDEX IF NOT EXISTS members_email ON members (email_key)');
}

export const emailKey = (email: string): string => email.trim().toLowerCase();

/** The active member other than `except` who has this email, if any: an email names one active member at most. */
export function emailHolder(sql: SqlStorage, email: string, except: string | null = null): string | null {
  const row = sql.exec<{ id: string }>('SELECT id FROM members WHERE email_key = ? AND revoked = 0 AND id IS NOT ?', emailKey(email), except).toArray()[0];
  return row?.id ?? null;
}

/** Who an email names for sign-in: the active member, else a revoked one (who may not sign in), else nobody. */
export function memberByEmail(sql: SqlStorage, email: string): { id: string; revoked: boolean } | null {
  const row = sql
    .exec<{ id: string; revoked: number }>('SELECT id, revoked FROM members WHERE email_key = ? AND name IS NOT NULL ORDER BY revoked, created_at DESC LIMIT 1', emailKey(email))
    .toArray()[0];
  return row ? { id: row.id, revoked: row.revoked === 1 } : null;
}

export function writeEmail(sql: SqlStorage, id: string, email: string | null): void {
  sql.exec('UPDATE members SET email = ?, email_key = ? WHERE id = ?', email, email === null ? null : emailKey(email), id);
}

export function writeScopeCopy(sql: SqlStorage, id: string, scope: MemberScope): void {
  sql.exec('UPDATE members SET scope_models = ?, scope_expires_at = ? WHERE id = ?', scope.models === null ? null : JSON.stringify(scope.models), scope.expiresAt, id);
}

/** The identity part of a listed member: `email` only when the member has one. */
export function identityOf(row: { email: string | null; scope_models: string | null; scope_expires_at: number | null }): { email?: string; scope: MemberScope } {
  const scope = row.scope_models === null && row.scope_expires_at === null
    ? OPEN_SCOPE
    : { models: row.scope_models === null ? null : (JSON.parse(row.scope_models) as string[]), expiresAt: row.scope_expires_at };
  return { ...(row.email === null ? {} : { email: row.email }), scope };
}

/**
 * The email a sign-in may enrol, checked as `POST /admin/members` checks one (shared memberEmailSchema):
 * an assertion's email is the identity provider's text, and `admin1`, `@acme.test` or one with a
 * right-to-left override must not become a member the admin could never have added.
 */
export function enrolmentEmail(email: string): { ok: true; email: string } | { ok: false; message: string } {
  const checked = check(memberEmailSchema, email, 'email');
  return checked.ok ? { ok: true, email: checked.value } : { ok: false, message: checked.problem.message };
}

/** A member's name from an email, for one enrolled by signing in: the part before `@`, by the label rule, at most 100 characters. */
export const nameFromEmail = (email: string): string => cutLabel(cleanLabel(email.split('@')[0] || email), MEMBER_NAME_MAX);
