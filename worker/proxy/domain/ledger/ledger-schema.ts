/**
 * Storage of the team ledger (team-ledger.ts). Money is in integer micro-units of the price
 * table's currency (shared/gateway/money.ts).
 */
export const LEDGER_SCHEMA = `
CREATE TABLE IF NOT EXISTS prices (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  json TEXT NOT NULL,          -- the operator's table (PUT /admin/prices); none: the default
  updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS budgets (
  scope TEXT PRIMARY KEY,      -- team | member:<id>
  limit_micros INTEGER,        -- null: no limit
  period TEXT NOT NULL,        -- month | total
  max_running INTEGER,         -- members only; null: no limit
  updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS totals (
  scope TEXT NOT NULL,
  period_key TEXT NOT NULL,    -- YYYY-MM (UTC) | total
  spent INTEGER NOT NULL DEFAULT 0,
  reserved INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (scope, period_key));
CREATE TABLE IF NOT EXISTS charges (
  id TEXT PRIMARY KEY,         -- the reservation
  member TEXT NOT NULL,
  task_id TEXT,                -- once the service accepted the create
  model TEXT NOT NULL,
  resolution TEXT,
  frames INTEGER NOT NULL,
  cost INTEGER NOT NULL,        -- reserved while state = reserved; then what was charged
  priced INTEGER NOT NULL,
  state TEXT NOT NULL,         -- reserved | charged | released
  status TEXT NOT NULL,        -- creating | queued | in_progress | unknown | completed | failed | expired
  tokens INTEGER,
  created_at INTEGER NOT NULL,
  ended_at INTEGER);
CREATE INDEX IF NOT EXISTS charges_member_state ON charges (member, state);
CREATE INDEX IF NOT EXISTS charges_created ON charges (created_at);
CREATE UNIQUE INDEX IF NOT EXISTS charges_task ON charges (task_id) WHERE task_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS alerts (
  scope TEXT NOT NULL,
  period_key TEXT NOT NULL,
  threshold INTEGER NOT NULL,
  limit_micros INTEGER NOT NULL,
  spent INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (scope, period_key, threshold));
CREATE TABLE IF NOT EXISTS storage (
  member TEXT NOT NULL,
  kind TEXT NOT NULL,          -- uploads | outputs
  bytes INTEGER NOT NULL,
  PRIMARY KEY (member, kind));
CREATE TABLE IF NOT EXISTS audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  detail TEXT NOT NULL);
`;

/**
 * Columns added to `charges` after wave 2 (token prices): a ledger of an older deployment gains
 * them on its next start, and its rows read as before (per second, estimate = cost, no overrun).
 */
export const CHARGE_COLUMNS: readonly (readonly [string, string])[] = [
  ['unit', 'TEXT'], // second | million_tokens; null: second (rows before units)
  ['rate', 'INTEGER'], // the price used, micro-units per unit; null on older rows
  ['estimate', 'INTEGER'], // what was reserved; null on older rows: cost
  ['overrun', 'INTEGER NOT NULL DEFAULT 0'], // the service reported more than was reserved
  ['queued', 'INTEGER NOT NULL DEFAULT 0'], // 1: held for a create in the gateway's queue, not at the service (docs/queue.md)
  ['launched_at', 'INTEGER'], // when the create went to the service; null while queued, and on older rows
];

/** Creates the ledger's tables, and adds what an older ledger lacks. */
export function openLedgerSchema(sql: SqlStorage): void {
  sql.exec(LEDGER_SCHEMA);
  const columns = new Set(sql.exec("SELECT name FROM pragma_table_info('charges')").toArray().map((r) => String(r.name)));
  for (const [name, definition] of CHARGE_COLUMNS) if (!columns.has(name)) sql.exec(`ALTER TABLE charges ADD COLUMN ${name} ${definition}`);
  // On added columns, so after them: the queue's reads of launch times and of slots (domain/queue/upstream-slots.ts)
  // are index lookups, not scans of every charge, in the object every create and launch goes through.
  sql.exec('CREATE INDEX IF NOT EXISTS charges_member_launched ON charges (member, launched_at)');
  sql.exec('CREATE INDEX IF NOT EXISTS charges_state_queued ON charges (state, queued)');
}
