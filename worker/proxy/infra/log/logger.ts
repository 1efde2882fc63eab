import { clip } from '../../../../shared';
import { redact } from './redact';

/** Fields of the one log line per request (docs/operating.md, "Logs"). */
export interface RequestLog {
  member?: string;
  route: string;
  operation?: string;
  status: number;
  durationMs: number;
  [extra: string]: unknown;
}

/** A log field: caller-supplied text clipped to a readable length, secrets removed. */
const field = (value: unknown, secrets: readonly string[]): unknown => (typeof value === 'string' ? clip(redact(value, secrets)) : value);

/**
 * One JSON object per line. Redaction happens here, field by field: a secret passed by mistake in
 * any string field is still removed, and the JSON around it cannot be damaged.
 */
export function createLogger(secrets: readonly string[], write: (line: string) => void = console.log) {
  // Most values come back line after line (routes, operations, member ids): each short one is
  // redacted once per logger, not on every line.
  const seen = new Map<string, unknown>();
  const fieldOf = (value: unknown): unknown => {
    if (typeof value !== 'string' || value.length > MEMO_MAX_LENGTH) return field(value, secrets);
    let out = seen.get(value);
    if (out === undefined) {
      if (seen.size >= MEMO_MAX_ENTRIES) seen.clear();
      seen.set(value, (out = field(value, secrets)));
    }
    return out;
  };
  return (entry: RequestLog): void => {
    const line: Record<string, unknown> = { time: new Date().toISOString() };
    for (const [key, value] of Object.entries(entry)) line[key] = fieldOf(value);
    write(JSON.stringify(line));
  };
}

const MEMO_MAX_LENGTH = 256;
const MEMO_MAX_ENTRIES = 1000;
