import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import { check, queueIdSchema, queueItemSchema, queueListSchema } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { queueObject } from '../../objects/handles';
import { memberError } from '../answers';
import type { MemberEnv } from '../middleware/member-auth';
import { errors, json, MEMBER, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** `/proxy/queue`: the member's own queued creates (docs/queue.md); another member's read as none. */
export const queueRoutes = new Hono<MemberEnv>();

const INVALID_ID = '`invalid_parameter`: `id` is not a queue id (`abq_` and 24 letters or digits).';
const NOT_FOUND = '`queue_item_not_found`: no such item of the caller\'s (another member\'s reads the same).';
const notFound = () => memberError(404, 'queue_item_not_found', 'No queued create with this id is yours.', 'id');

/** The caller's member id, or null for a token no longer valid (one call to the member's object). */
async function memberId(c: Context<MemberEnv>): Promise<string | null> {
  const { state, tokenHash } = c.get('member');
  return (await state.me(tokenHash))?.id ?? null;
}

/** The path's id checked before any lookup: a 400 naming `id`, or the id. */
function queueId(c: Context<MemberEnv>): { id: string } | { refused: Response } {
  const checked = check(queueIdSchema, c.req.param('id'), 'id');
  return checked.ok ? { id: checked.value } : { refused: memberError(400, 'invalid_parameter', checked.problem.message, 'id') };
}

queueRoutes.get('/queue', describeRoute({
  summary: 'The caller\'s queued creates, newest first (at most 1,000)',
  description: 'Creates sent with `Prefer: respond-async` that could not start at once. `position` (1-based) is how many of the team\'s queued creates launch before each, counting it.',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('`{"items":[...]}`.', queueListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const id = await memberId(c);
  if (!id) return toResponse(proxyUnauthorized());
  return c.json({ items: await queueObject(c.env).list(id) } satisfies v.InferOutput<typeof queueListSchema>);
});

queueRoutes.get('/queue/:id', describeRoute({
  summary: 'One of the caller\'s queued creates',
  tags: ['member'],
  security: MEMBER,
  responses: { 200: json('The item: `queued`, `launched` (with `taskId`), `failed` (with the service\'s `error`) or `cancelled`.', queueItemSchema), ...errors({ 400: INVALID_ID, 401: UNAUTHORIZED_MEMBER, 404: NOT_FOUND }) },
}), async (c) => {
  const checked = queueId(c);
  if ('refused' in checked) return checked.refused;
  const member = await memberId(c);
  if (!member) return toResponse(proxyUnauthorized());
  const item = await queueObject(c.env).item(member, checked.id);
  return item ? c.json(item) : notFound();
});

queueRoutes.delete('/queue/:id', describeRoute({
  summary: 'Cancel one of the caller\'s queued creates; its reservation is released',
  tags: ['member'],
  security: MEMBER,
  responses: {
    200: json('The item, `cancelled`.', queueItemSchema),
    ...errors({ 400: INVALID_ID, 401: UNAUTHORIZED_MEMBER, 404: NOT_FOUND, 409: '`queue_item_not_queued`: it already launched, failed, was cancelled, or is being launched.' }),
  },
}), async (c) => {
  const checked = queueId(c);
  if ('refused' in checked) return checked.refused;
  const member = await memberId(c);
  if (!member) return toResponse(proxyUnauthorized());
  const cancelled = await queueObject(c.env).cancel(member, checked.id);
  if (cancelled === null) return notFound();
  if (cancelled === 'not_queued') return memberError(409, 'queue_item_not_queued', 'This create is no longer queued: it launched, failed, was cancelled, or is being launched now.', 'id');
  return c.json(cancelled);
});
