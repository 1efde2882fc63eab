import type { AuditEntry } from '../../../../shared';

/**
 * The team's audit log: every admin change, every budget refusal, every alert, with its actor
 * and time. Details are ids, amounts and names: never a token or key (callers pass none).
 */

/** Entries kept: the oldest beyond this are dropped as new ones come in. */
export const AUDIT_KEEP = 100_000;

export function appendAudit(sql: SqlStorage, now: number, actor: string, action: string, target: string | null, detail: Record<string, unknown>): void {
  const seq = sql.exec('INSERT INTO audit (at, actor, action, target, detail) VALUES (?, ?, ?, ?, ?) RETURNING seq', now, actor, action, target, JSON.stringify(detail)).one().seq as number;
  if (seq % 1000 === 0) sql.exec('DELETE FROM audit WHERE seq <= ?', seq - AUDIT_KEEP);
}

/** The newest entries first. */
export function readAudit(sql: SqlStorage, limit: number): AuditEntry[] {
  return sql
    .exec('SELECT at, actor, action, target, detail FROM audit ORDER BY seq DESC LIMIT ?', limit)
    .toArray()
    .map((r) => ({
      at: new Date(r.at as number).toISOString(),
      actor: String(r.actor),
      action: String(r.action),
      target: r.target === null ? null : String(r.target),
      detail: JSON.parse(String(r.detail)) as Record<string, unknown>,
    }));
}
