/**
 * When each member last launched (direct or queued), as the queue knows it: the fair order's input
 * (fair-order.ts), kept in the queue's own storage so that an enqueue orders its item without a call
 * to the ledger. The ledger stays the owner of record (`launched_at` of its charges, which a direct
 * create sets and a 429 clears): the queue reads it once per pass and per read of positions, for
 * the members waiting only, and notes its own launches as it claims their slots.
 */

export const LAUNCH_TIMES_SCHEMA = `
CREATE TABLE IF NOT EXISTS queue_last_launch (
  member TEXT PRIMARY KEY,
  at INTEGER NOT NULL           -- ms; absent: never launched (as far as the queue last read)
);
`;

/** The ledger, as it answers last launches (SlotPort's `lastLaunches`). */
export interface LaunchSource {
  lastLaunches(members: string[]): Promise<Record<string, number>>;
}

export const openLaunchTimes = (sql: SqlStorage): void => void sql.exec(LAUNCH_TIMES_SCHEMA);

/** The members with creates waiting (queued or launching). */
export const waitingMembers = (sql: SqlStorage): string[] =>
  sql.exec("SELECT DISTINCT member FROM queue_items WHERE status IN ('queued', 'launching')").toArray().map((r) => String(r.member));

/** Last launches of the waiting members as last known here (no call to the ledger). */
export function knownLaunches(sql: SqlStorage): Record<string, number> {
  const rows = sql.exec("SELECT member, at FROM queue_last_launch WHERE member IN (SELECT member FROM queue_items WHERE status IN ('queued', 'launching'))").toArray();
  return Object.fromEntries(rows.map((r) => [String(r.member), r.at as number]));
}

/** Reads the waiting members' last launches from the ledger (one call) and keeps them (one row per member who ever queued: bounded by the team). */
export async function refreshLaunches(sql: SqlStorage, slots: LaunchSource): Promise<Record<string, number>> {
  const members = waitingMembers(sql);
  if (!members.length) return {};
  const known = await slots.lastLaunches(members);
  for (const member of members) {
    const at = known[member];
    if (at === undefined) sql.exec('DELETE FROM queue_last_launch WHERE member = ?', member);
    else sql.exec('INSERT INTO queue_last_launch (member, at) VALUES (?, ?) ON CONFLICT (member) DO UPDATE SET at = excluded.at', member, at);
  }
  return knownLaunches(sql);
}

/** The queue launched (claimed a slot for) a create of `member` at `at`; answers what it replaces (undefined: none). */
export function noteLaunch(sql: SqlStorage, member: string, at: number): number | undefined {
  const before = sql.exec('SELECT at FROM queue_last_launch WHERE member = ?', member).toArray()[0]?.at as number | undefined;
  sql.exec('INSERT INTO queue_last_launch (member, at) VALUES (?, ?) ON CONFLICT (member) DO UPDATE SET at = excluded.at', member, at);
  return before;
}

/** The service was busy for that launch: the member's last launch is what it was before (the item keeps its place). */
export function undoLaunch(sql: SqlStorage, member: string, before: number | undefined): void {
  if (before === undefined) sql.exec('DELETE FROM queue_last_launch WHERE member = ?', member);
  else noteLaunch(sql, member, before);
}
