import type { Context } from 'hono';
import type * as v from 'valibot';
import { check, parseJsonBytes } from '../../../shared';
import type { ErrorAnswer } from './answers';

/**
 * The JSON body of a proxy route (admin API, consents), read with the shared reader (size already
 * limited by the route's body limit; strict UTF-8, bounded nesting) and checked with `schema`: the
 * value, or the 400 `invalid_parameter` answer naming the field (`body` when it is not JSON).
 */
export async function readJsonBody<S extends v.GenericSchema>(c: Context, schema: S, answer: ErrorAnswer): Promise<{ value: v.InferOutput<S> } | { refused: Response }> {
  const parsed = parseJsonBytes(await c.req.arrayBuffer());
  if (!parsed.ok) return { refused: answer(400, 'invalid_parameter', parsed.message, 'body') };
  const checked = check(schema, parsed.value);
  return checked.ok ? { value: checked.value } : { refused: answer(400, 'invalid_parameter', checked.problem.message, checked.problem.field) };
}
