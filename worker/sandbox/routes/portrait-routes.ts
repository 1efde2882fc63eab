import type { Context } from 'hono';
import * as v from 'valibot';
import { groupDescription, groupName, sentence, strictObjectMessage } from '../../../shared';
import type { SandboxEnv } from '../env';
import { portraitPage } from '../portrait/page';
import { helperInvalid, readChecked } from './body';
import { service } from './service-object';

/** Unknown keys, missing keys and non-object bodies each get their own wording. */
const NOT_A_FIELD = strictObjectMessage('is not a field of this call');

type C = Context<{ Bindings: SandboxEnv }>;

/** A session's page id: hex, as `CreatePortraitSession` makes them (anything else names no session). */
const H5_ID = /^[0-9a-f]{1,64}$/;

export async function h5Page(c: C): Promise<Response> {
  const h5 = c.req.param('h5')!;
  const page = H5_ID.test(h5) ? await service(c.env).portraitPage(h5) : ({ state: 'missing' } as const);
  // The page posts its own link back; a query string the caller added is not repeated.
  const url = new URL(c.req.url);
  return c.html(portraitPage(`${url.origin}${url.pathname}`, page), page.state === 'missing' ? 404 : 200);
}

export const completeSchema = v.strictObject(
  { H5Link: v.pipe(v.string('must be a string'), v.url('must be the H5Link URL')), GroupName: groupName, GroupDescription: v.optional(groupDescription, '') },
  NOT_A_FIELD,
);

/** `POST /sandbox/portrait/complete`: what the phone page submits when the person finishes. */
export async function completePortrait(c: C): Promise<Response> {
  const checked = await readChecked(c, completeSchema);
  if (!checked.ok) return checked.response;
  const h5 = /\/h5\/portrait\/([0-9a-f]{1,64})$/.exec(new URL(checked.value.H5Link).pathname)?.[1];
  if (!h5) return helperInvalid(c, 'H5Link: is not a portrait session link.');
  const outcome = await service(c.env).completePortrait(h5, checked.value.GroupName, checked.value.GroupDescription);
  return outcome.ok ? c.json(outcome.result) : c.json({ error: outcome.code, message: sentence(outcome.message) }, outcome.status as 400);
}
