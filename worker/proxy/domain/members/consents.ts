/**
 * A member's consents (`POST /proxy/consents`): what they accepted, in which version of the rules,
 * and when. Portrait custody asks for the `portrait` scope before a real-person session.
 */

export interface Consent {
  scope: string;
  rulesVersion: string;
  acceptedAt: string;
}

export function recordConsent(sql: SqlStorage, scope: string, rulesVersion: string, now: number): Consent {
  const consent = { scope, rulesVersion, acceptedAt: new Date(now).toISOString() };
  sql.exec('INSERT INTO consents VALUES (?, ?, ?)', scope, rulesVersion, consent.acceptedAt);
  return consent;
}

/** The member's consents, oldest first. */
export function listConsents(sql: SqlStorage): Consent[] {
  return sql
    .exec('SELECT * FROM consents ORDER BY accepted_at')
    .toArray()
    .map((r) => ({ scope: String(r.scope), rulesVersion: String(r.rules_version), acceptedAt: String(r.accepted_at) }));
}

/** Whether the member has accepted the rules of `scope` (any version). */
export const hasConsent = (sql: SqlStorage, scope: string): boolean => sql.exec('SELECT 1 FROM consents WHERE scope = ?', scope).toArray().length > 0;
