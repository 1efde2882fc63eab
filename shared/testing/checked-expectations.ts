import { expect } from 'vitest';
import type { Checked } from '../validation';

/** Test expectations on `Checked` results, shared by the schema and request-check tests. */

/** Asserts a rejection whose field is `field` and whose message names that field (and matches `text`). */
export function expectRejected(result: Checked<unknown>, field: string, text?: RegExp): void {
  if (result.ok) throw new Error(`expected a rejection naming ${field}, but the input was accepted`);
  expect(result.problem.field).toBe(field);
  expect(result.problem.message.startsWith(`${field}: `)).toBe(true);
  if (text) expect(result.problem.message).toMatch(text);
}

/** Asserts acceptance and answers the checked value. */
export function expectAccepted<T>(result: Checked<T>): T {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.problem.message}`);
  return result.value;
}
