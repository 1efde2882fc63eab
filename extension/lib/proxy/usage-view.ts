import * as v from 'valibot';
import { usageViewSchema, type UsageView } from '@@/shared';

/**
 * Reads `GET /proxy/usage` with the shared `usageViewSchema`: unknown fields ignored, a malformed
 * alert left out, `storage` of an older proxy read as nothing stored. An answer whose budget
 * cannot be read at all is null (not a proxy's answer).
 */
export function usageViewOf(value: unknown): UsageView | null {
  const read = v.safeParse(usageViewSchema, value);
  return read.success ? read.output : null;
}
