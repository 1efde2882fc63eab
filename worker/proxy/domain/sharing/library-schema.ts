/**
 * Storage of the team library (objects/team-library.ts): a row per group that was ever shared
 * (its owner of record stays the owner's own object; this is the copy grantees are checked
 * against), per-member roles, the assets of those groups, and the gallery.
 */
export const TEAM_LIBRARY_SCHEMA = `
CREATE TABLE IF NOT EXISTS shared_groups (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  owner_name TEXT NOT NULL,
  name TEXT NOT NULL,
  group_type TEXT NOT NULL,    -- AIGC | LivenessFace (viewer only)
  team_role TEXT NOT NULL,     -- none | viewer | editor
  team_at INTEGER NOT NULL,    -- when the team role last changed
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS shared_groups_owner ON shared_groups (owner);
CREATE TABLE IF NOT EXISTS grants (
  group_id TEXT NOT NULL,
  member TEXT NOT NULL,
  role TEXT NOT NULL,          -- none | viewer | editor: overrides the team role
  at INTEGER NOT NULL,
  PRIMARY KEY (group_id, member));
CREATE INDEX IF NOT EXISTS grants_member ON grants (member);
CREATE TABLE IF NOT EXISTS shared_assets (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS shared_assets_group ON shared_assets (group_id);
CREATE TABLE IF NOT EXISTS gallery (
  task_id TEXT PRIMARY KEY,
  member TEXT NOT NULL,
  member_name TEXT NOT NULL,
  model TEXT NOT NULL,
  request TEXT,                -- the create body as sent; null for older tasks
  cost REAL NOT NULL,
  currency TEXT NOT NULL,
  kept_until INTEGER,          -- unix seconds; null: no kept copy
  published_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS gallery_newest ON gallery (published_at DESC, task_id DESC);
`;

/**
 * What a member's own object adds (objects/member-state.ts): the groups it shares (so that an
 * asset created in one is recorded in the team library), and the create body of each task (the
 * gallery shows it). Added in place: objects of earlier waves gain them on their next start.
 */
export function migrateMemberForSharing(sql: SqlStorage): void {
  sql.exec('CREATE TABLE IF NOT EXISTS shared_out (group_id TEXT PRIMARY KEY)');
  const columns = new Set(sql.exec("SELECT name FROM pragma_table_info('tasks')").toArray().map((r) => String(r.name)));
  if (!columns.has('request')) sql.exec('ALTER TABLE tasks ADD COLUMN request TEXT');
}
