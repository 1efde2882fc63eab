/** The sandbox's SQLite schema. Times are milliseconds on the sandbox clock. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS groups (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
  type TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS groups_account ON groups (account);
CREATE TABLE IF NOT EXISTS assets (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, group_id TEXT NOT NULL, name TEXT NOT NULL,
  url TEXT NOT NULL, type TEXT NOT NULL,
  download TEXT NOT NULL,            -- pending | ok | failed
  error TEXT NOT NULL DEFAULT '',    -- failure message when failed
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  ready_at INTEGER NOT NULL);        -- earliest time the asset may turn Active
CREATE INDEX IF NOT EXISTS assets_account ON assets (account, group_id);
CREATE INDEX IF NOT EXISTS assets_download ON assets (download);
CREATE TABLE IF NOT EXISTS portraits (
  token TEXT PRIMARY KEY, h5 TEXT NOT NULL UNIQUE, account TEXT NOT NULL,
  continuous INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  state TEXT NOT NULL,               -- pending | completed | resolved
  group_name TEXT, group_description TEXT, group_id TEXT);
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY, account TEXT NOT NULL, model TEXT NOT NULL,
  refs TEXT NOT NULL,                -- JSON list of references still to download
  download TEXT NOT NULL,            -- pending | ok | failed
  error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL, refs_done_at INTEGER,
  completion_tokens INTEGER,          -- usage reported once completed; null on tasks older than it
  video_seconds REAL,                 -- length of the video served; null on tasks older than it (the 2 s fixture)
  video_size TEXT,                    -- '<width>x<height>' of the video served; null on tasks older than it (320x180)
  last_frame INTEGER NOT NULL DEFAULT 0); -- 1 when the create asked return_last_frame
CREATE TABLE IF NOT EXISTS faults (
  target TEXT PRIMARY KEY, status INTEGER NOT NULL, remaining INTEGER NOT NULL,
  retry_after INTEGER, task_status TEXT, delay_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS stats (
  target TEXT NOT NULL, action TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (target, action));
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/**
 * Columns added to tables after their first release, for databases persisted before them:
 * `CREATE TABLE IF NOT EXISTS` leaves an existing table as it was.
 */
const ADDED_COLUMNS: readonly { table: string; column: string; definition: string }[] = [
  { table: 'tasks', column: 'completion_tokens', definition: 'INTEGER' },
  { table: 'tasks', column: 'video_seconds', definition: 'REAL' },
  { table: 'tasks', column: 'last_frame', definition: 'INTEGER NOT NULL DEFAULT 0' },
  { table: 'tasks', column: 'video_size', definition: 'TEXT' },
];

/**
 * Brings a database made by an earlier SCHEMA up to this one: adds each missing column (SQLite
 * has no `ADD COLUMN IF NOT EXISTS`, so each is looked up first). Never drops or rewrites data;
 * a second run changes nothing.
 */
export function upgradeSchema(sql: SqlStorage): void {
  for (const { table, column, definition } of ADDED_COLUMNS) {
    const present = sql.exec(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`, column).toArray().length > 0;
    if (!present) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}
