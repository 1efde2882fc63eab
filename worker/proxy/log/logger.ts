import { redact } from './redact';

/** Fields of the one log line per request (contract section 7). */
export interface RequestLog {
  member?: string;
  route: string;
  operation?: string;
  status: number;
  durationMs: number;
  [extra: string]: unknown;
}

/**
 * One JSON object per line. Redaction happens here, over the whole serialized line: a secret
 * passed by mistake in any field is still removed.
 */
export function createLogger(secrets: readonly string[], write: (line: string) => void = console.log) {
  return (entry: RequestLog): void => write(redact(JSON.stringify({ time: new Date().toISOString(), ...entry }), secrets));
}
