import { clip } from '../../../shared';
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
  return (entry: RequestLog): void => {
    const line: Record<string, unknown> = { time: new Date().toISOString() };
    for (const [key, value] of Object.entries(entry)) line[key] = field(value, secrets);
    write(JSON.stringify(line));
  };
}
