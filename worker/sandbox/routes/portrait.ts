import type { Context } from 'hono';
import * as v from 'valibot';
import { check, groupDescription, groupName, strictObjectMessage } from '../../../shared';
import type { SandboxEnv } from '../env';
import { portraitPage } from '../portrait/page';
import { service } from './service';

/** Unknown keys, missing keys and non-object bodies each get their own wording. */
const NOT_A_FIELD = strictObjectMessage('is not a field of this call');

type C = Context<{ Bindings: SandboxEnv }>;

export async function h5Page(c: C): Promise<Response> {
  const page = await service(c.env).portraitPage(c.req.param('h5')!);
  return c.html(portraitPage(c.req.url, page), page.state === 'missing' ? 404 : 200);
}

const completeSchema = v.strictObject(
  { H5Link: v.pipe(v.string('must be a string'), v.url('must be the H5Link URL')), GroupName: groupName, GroupDescription: v.optional(groupDescription, '') },
  NOT_A_FIELD,
);

/** `POST /sandbox/portrait/complete`: what the phone page submits when the person finishes. */
export async function completePortrait(c: C): Promise<Response> {
  const json = await c.req.json().catch(() => undefined);
  const checked = check(completeSchema, json);
  if (!checked.ok) return c.json({ error: 'ValidationError', message: checked.problem.message }, 400);
  const h5 = /\/h5\/portrait\/([0-9a-f]+)$/.exec(new URL(checked.value.H5Link).pathname)?.[1];
  if (!h5) return c.json({ error: 'ValidationError', message: 'H5Link: is not a portrait session link.' }, 400);
  const outcome = await service(c.env).completePortrait(h5, checked.value.GroupName, checked.value.GroupDescription);
  return outcome.ok ? c.json(outcome.result) : c.json({ error: outcome.code, message: outcome.message }, outcome.status as 400);
}
