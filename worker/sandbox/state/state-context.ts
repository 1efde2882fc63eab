import { clip } from '../../../shared';
import type { SandboxTiming } from '../sandbox-settings';
import { randomHex } from '../../../shared';

/** What every state operation needs: the database, the sandbox clock and the public origin. */
export interface Ctx {
  sql: SqlStorage;
  /** Now, in milliseconds, on the sandbox clock (real time plus /sandbox/clock advances). */
  now: number;
  timing: SandboxTiming;
  /** The sandbox's public origin, for links it hands out (H5 pages, result videos). */
  origin: string;
}

export type Outcome<R> = { ok: true; result: R } | { ok: false; status: number; code: string; message: string };

export const success = <R>(result: R): Outcome<R> => ({ ok: true, result });
export const failure = (status: number, code: string, message: string): Outcome<never> => ({ ok: false, status, code, message });
export const accessDenied = (what: string, id: string): Outcome<never> =>
  failure(403, 'AccessDenied', `${what} ${clip(id)} does not exist or you have no access to it.`);
/** Validation failures carry HTTP 200, as the service allows; callers must read ResponseMetadata.Error. */
export const validationError = (message: string): Outcome<never> => failure(200, 'ValidationError', message);

/** A random id with a readable prefix, e.g. `group-3f9a...`. */
export function newId(prefix: string): string {
  return `${prefix}-${randomHex(10)}`;
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Rows of a query as plain objects of the given shape. */
export const rows = <T>(sql: SqlStorage, query: string, ...bindings: unknown[]): T[] =>
  sql.exec(query, ...bindings).toArray() as unknown as T[];
