/**
 * The create body of each task, kept in the member's task record (the gallery shows what a video
 * was made from). Inline `data:` media past this size are replaced by a note of their length, so
 * that a record stays small whatever the create carried.
 */
const INLINE_KEEP = 2048;

function elided(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('data:') && value.length > INLINE_KEEP ? `${value.slice(0, value.indexOf(',') + 1)}<${value.length} characters not kept>` : value;
  if (Array.isArray(value)) return value.map(elided);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, elided(v)]));
  return value;
}

export function keepRequest(sql: SqlStorage, taskId: string, body: unknown): void {
  sql.exec('UPDATE tasks SET request = ? WHERE id = ?', JSON.stringify(elided(body)), taskId);
}

/** The create body of a task, or null for a task recorded before the proxy kept it. */
export function taskRequest(raw: unknown): Record<string, unknown> | null {
  if (typeof raw !== 'string') return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
