/** The profile row of a member's object. */
export interface ProfileRow {
  id: string;
  name: string;
  token_hash: string;
  created_at: number;
  revoked: number;
}

/** Storage of one member's Durable Object. */
export const MEMBER_SCHEMA = `
CREATE TABLE IF NOT EXISTS profile (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS owned (
  kind TEXT NOT NULL,          -- group | asset | task
  id TEXT NOT NULL,
  parent TEXT,                 -- an asset's group
  created_at INTEGER NOT NULL,
  PRIMARY KEY (kind, id));
CREATE INDEX IF NOT EXISTS owned_parent ON owned (parent);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT PRIMARY KEY,        -- <operation>:<Idempotency-Key>
  body_hash TEXT NOT NULL,
  state TEXT NOT NULL,         -- in_progress | done | unknown (cut off mid-create; told once, then freed)
  status INTEGER, body TEXT, headers TEXT,
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idempotency_age ON idempotency (created_at);
CREATE TABLE IF NOT EXISTS portrait_handles (
  handle TEXT PRIMARY KEY,
  partner_token TEXT NOT NULL, -- the service's token; never leaves this object; cleared once used
  expires_at INTEGER NOT NULL,
  state TEXT NOT NULL);        -- pending | resolved
CREATE TABLE IF NOT EXISTS consents (
  scope TEXT NOT NULL, rules_version TEXT NOT NULL, accepted_at TEXT NOT NULL);
`;

/**
 * The video tasks a member created through the proxy, followed to their end by the object's
 * alarm (domain/tracking/task-tracker.ts). Added in wave 2: objects of wave 1 gain the table on their
 * next start and keep everything else.
 */
export const TASK_SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY,
  reservation TEXT NOT NULL,   -- its charge in the team ledger
  cost INTEGER NOT NULL,       -- micro-units of currency: reserved, then what the ledger charged
  currency TEXT NOT NULL,
  priced INTEGER NOT NULL,
  status TEXT NOT NULL,        -- as the service last said
  body TEXT NOT NULL,          -- the service's last answer, as sent
  refreshed_at INTEGER NOT NULL,  -- when the query that answered it started
  next_check_at INTEGER,       -- null: nothing left to do
  failures INTEGER NOT NULL DEFAULT 0,
  tracking TEXT NOT NULL,      -- tracking | ended | expired
  settled INTEGER NOT NULL DEFAULT 0,  -- the ledger has the ending
  tokens INTEGER,
  created_at INTEGER NOT NULL,
  ended_at INTEGER,
  keep_state TEXT,             -- null (not kept) | pending | kept | failed | deleted
  keep_next_at INTEGER,        -- the next copy attempt while pending
  keep_attempts INTEGER NOT NULL DEFAULT 0,
  keep_error TEXT,
  kept_until INTEGER,          -- unix seconds
  kept_size INTEGER);
CREATE INDEX IF NOT EXISTS tasks_due ON tasks (next_check_at) WHERE next_check_at IS NOT NULL;
`;

/**
 * Video creates on their way to the service, written before the call goes upstream, so that a
 * restart of the proxy mid-create finds them (domain/video/creates-in-flight.ts). Added in wave 3.
 */
export const CREATES_SCHEMA = `
CREATE TABLE IF NOT EXISTS creates_in_flight (
  reservation TEXT PRIMARY KEY, -- its reservation in the team ledger
  idempotency_key TEXT,        -- <operation>:<Idempotency-Key>, or null
  model TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  deadline_at INTEGER NOT NULL, -- resolved as unknown from then on, unless still running here
  state TEXT NOT NULL          -- sending | unknown (marked; the ledger not yet told)
);
`;

/** Creates the task table, and adds to an older one what it lacks (wave 3: what was reserved, beside what was charged). */
export function openTaskSchema(sql: SqlStorage): void {
  sql.exec(TASK_SCHEMA);
  const columns = new Set(sql.exec("SELECT name FROM pragma_table_info('tasks')").toArray().map((r) => String(r.name)));
  // The reservation (micro-units); null on older rows, whose cost is what was reserved.
  if (!columns.has('estimate')) sql.exec('ALTER TABLE tasks ADD COLUMN estimate INTEGER');
}
