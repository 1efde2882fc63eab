import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { check, galleryItemSchema, galleryListSchema, galleryPublishSchema, galleryQuerySchema } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { libraryObject } from '../../objects/handles';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import { memberAnswer, type MemberEnv } from '../middleware/member-auth';
import { empty, errors, INVALID_JSON, json, jsonBody, MEMBER, queryParameters, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** The team gallery (docs/team-library.md): finished videos members show the team. */
export const galleryRoutes = new Hono<MemberEnv>();

galleryRoutes.post('/gallery', describeRoute({
  summary: 'Publish one of the caller\'s completed videos to the team gallery',
  tags: ['team'],
  security: MEMBER,
  requestBody: jsonBody(galleryPublishSchema),
  responses: {
    201: json('The gallery item.', galleryItemSchema),
    200: json('Already published: the item as it is.', galleryItemSchema),
    ...errors({
      400: INVALID_JSON,
      401: UNAUTHORIZED_MEMBER,
      404: '`task_not_found`: not one of the caller\'s tasks.',
      409: '`task_not_completed`: the task has not completed.',
      413: TOO_LARGE_JSON,
    }),
  },
}), async (c) => {
  const body = await readJsonBody(c, galleryPublishSchema, memberError);
  if ('refused' in body) return body.refused;
  const { state, tokenHash } = c.get('member');
  const origin = new URL(c.req.url).origin;
  return memberAnswer(await state.sharing(tokenHash, { kind: 'publish', taskId: body.value.taskId, origin }), proxyUnauthorized);
});

galleryRoutes.get('/gallery', describeRoute({
  summary: 'The team gallery, newest first',
  tags: ['team'],
  security: MEMBER,
  parameters: queryParameters(galleryQuerySchema, { limit: 'At most this many (1 to 100, default 20).', before: 'The `next` of the previous page.' }),
  responses: { 200: json('A page of items; `next` is null on the last.', galleryListSchema), ...errors({ 400: '`invalid_parameter`: a query parameter refused; `param` names it.', 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const query = check(galleryQuerySchema, c.req.query(), 'query');
  if (!query.ok) return memberError(400, 'invalid_parameter', query.problem.message, query.problem.field);
  return c.json(await libraryObject(c.env).gallery(query.value.limit, query.value.before ?? null, new URL(c.req.url).origin));
});

galleryRoutes.delete('/gallery/:taskId', describeRoute({
  summary: 'Remove a video the caller published from the gallery',
  description: 'The admin removes any item with `DELETE /admin/gallery/{taskId}`. The kept video itself stays.',
  tags: ['team'],
  security: MEMBER,
  responses: {
    204: empty('Removed.'),
    ...errors({ 401: UNAUTHORIZED_MEMBER, 403: '`not_publisher`: another member published it.', 404: '`gallery_item_not_found`: not in the gallery.' }),
  },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  return memberAnswer(await state.sharing(tokenHash, { kind: 'unpublish', taskId: c.req.param('taskId') }), proxyUnauthorized);
});
