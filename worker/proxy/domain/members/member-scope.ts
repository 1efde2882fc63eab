import { clip, OPEN_SCOPE, videoError, type MemberScope, type MemberScopeChange } from '../../../../shared';
import { videoFailure, type ProxyResponse } from '../../infra/http/responses';

/**
 * A member's scope (docs/identity.md), the one module of its rules: which models the member may
 * spend on (creates and quotes, checked before any reservation) and when every token of the member
 * stops working. Kept in the member's own object, where each request is decided; the directory keeps
 * a copy for the admin's list.
 */

export const SCOPE_SCHEMA = `
CREATE TABLE IF NOT EXISTS member_scope (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  models TEXT,                 -- JSON list of model ids; null: every model
  expires_at INTEGER           -- unix seconds; null: never
);
`;

/** The member's scope as stored (open when none was ever set). */
export function readScope(sql: SqlStorage): MemberScope {
  const row = sql.exec<{ models: string | null; expires_at: number | null }>('SELECT models, expires_at FROM member_scope').toArray()[0];
  if (!row) return OPEN_SCOPE;
  return { models: row.models === null ? null : (JSON.parse(row.models) as string[]), expiresAt: row.expires_at };
}

/** Applies a change (a field left out keeps its value) and answers the scope now in force. */
export function writeScope(sql: SqlStorage, change: MemberScopeChange): MemberScope {
  const current = readScope(sql);
  const next: MemberScope = {
    models: change.models === undefined ? current.models : change.models,
    expiresAt: change.expiresAt === undefined ? current.expiresAt : change.expiresAt,
  };
  sql.exec(
    'INSERT INTO member_scope (one, models, expires_at) VALUES (1, ?, ?) ON CONFLICT (one) DO UPDATE SET models = excluded.models, expires_at = excluded.expires_at',
    next.models === null ? null : JSON.stringify(next.models),
    next.expiresAt,
  );
  return next;
}

/** Whether the member's tokens have expired at `nowMs`: from the second `expiresAt` names on. */
export const scopeExpired = (scope: MemberScope, nowMs: number): boolean => scope.expiresAt !== null && nowMs >= scope.expiresAt * 1000;

/** The 403 of a create or a quote for a model outside the member's scope, or null when the model is allowed. */
export function modelRefusal(scope: MemberScope, model: string): ProxyResponse | null {
  if (scope.models === null || scope.models.includes(model)) return null;
  const allowed = scope.models.length ? `the models you may use are ${scope.models.join(', ')}` : 'you may not use any model';
  return videoFailure(403, videoError('model_not_allowed', `model: ${clip(model)} is not allowed for you (${allowed}); ask your team's admin`, 'permission_error', 'model'));
}
