import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { clip, UPLOAD_TYPES, uploadAnswerSchema, uploadListSchema } from '../../../../shared';
import { mediaStoreOff } from '../../domain/media/media-store-off';
import { deleteUpload, handleUpload, listUploads } from '../../domain/media/upload-handler';
import { toResponse } from '../../infra/http/responses';
import { ledgerObject } from '../../objects/handles';
import { memberError } from '../answers';
import type { MemberEnv } from '../middleware/member-auth';
import { empty, errors, json, MEMBER, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** The member's side of the media store (docs/media-store.md): uploads, and deleting a kept output. */
export const uploadRoutes = new Hono<MemberEnv>();

const MEDIA_OFF_DOC = '`media_store_not_configured`: the operator has not set `MEDIA_URL_SECRET`.';

uploadRoutes.post('/uploads', describeRoute({
  summary: 'Upload a file into the media store',
  description:
    'The body is the file\'s bytes, streamed: its type is checked from `Content-Type` and from its first bytes, ' +
    'its size from `Content-Length` (image 30 MB, video 50 MB, audio 15 MB).',
  tags: ['media'],
  security: MEMBER,
  parameters: [
    { in: 'query', name: 'name', required: false, description: 'A display name, at most 200 characters.', schema: { type: 'string', maxLength: 200 } },
    { in: 'header', name: 'Content-Length', required: true, schema: { type: 'integer', minimum: 1 } },
  ],
  requestBody: { required: true, content: Object.fromEntries(Object.keys(UPLOAD_TYPES).map((type) => [type, {}])) },
  responses: {
    200: json('The member had already uploaded these bytes (same SHA-256, still kept): that upload, with a fresh signed `url` and `"existing": true`; nothing was stored again.', uploadAnswerSchema),
    201: json('The upload; `url` is a signed `/media` address.', uploadAnswerSchema),
    ...errors({
      400: '`invalid_parameter`: an empty body, a bad `Content-Length` or `name`, or fewer or more bytes than announced.',
      401: UNAUTHORIZED_MEMBER,
      411: '`length_required`: no `Content-Length`.',
      413: '`request_too_large`: over the limit of the file\'s kind.',
      415: '`unsupported_media_type`: another type, or bytes that are not the declared type.',
      503: MEDIA_OFF_DOC,
    }),
  },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  // The token is checked before a byte of the body is read.
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const request = { headers: c.req.raw.headers, body: c.req.raw.body };
  const result = await handleUpload(c.env, ledgerObject(c.env), state, id, request, new URL(c.req.url).origin, c.req.query('name'));
  if (!result.ok) {
    const { status, code, message, param } = result.refusal;
    return memberError(status, code, message, param);
  }
  return c.json(result.answer, result.answer.existing ? 200 : 201);
});

uploadRoutes.get('/uploads', describeRoute({
  summary: 'The member\'s uploads, 1,000 a page',
  tags: ['media'],
  security: MEMBER,
  parameters: [{ in: 'query', name: 'cursor', required: false, description: 'The `cursor` of the previous page.', schema: { type: 'string', maxLength: 1024 } }],
  responses: {
    200: json('A page of uploads; `cursor` is null on the last.', uploadListSchema),
    ...errors({ 400: '`invalid_parameter`: a cursor over 1024 characters.', 401: UNAUTHORIZED_MEMBER, 503: MEDIA_OFF_DOC }),
  },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const off = mediaStoreOff(c.env);
  if (off) return memberError(off.status, off.code, off.message);
  const cursor = c.req.query('cursor');
  if (cursor !== undefined && cursor.length > 1024) return memberError(400, 'invalid_parameter', 'cursor: must be at most 1024 characters', 'cursor');
  return c.json(await listUploads(c.env, id, cursor));
});

uploadRoutes.delete('/uploads/:id', describeRoute({
  summary: 'Delete one of the member\'s uploads',
  tags: ['media'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`upload_not_found`: another member\'s or a missing id.', 503: MEDIA_OFF_DOC }) },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const off = mediaStoreOff(c.env);
  if (off) return memberError(off.status, off.code, off.message);
  return (await deleteUpload(c.env, ledgerObject(c.env), state, id, c.req.param('id')))
    ? c.body(null, 204)
    : memberError(404, 'upload_not_found', `No upload ${clip(c.req.param('id'))} exists for you.`, 'id');
});

uploadRoutes.delete('/outputs/:taskId', describeRoute({
  summary: 'Delete the kept copy of one of the member\'s tasks',
  tags: ['media'],
  security: MEMBER,
  responses: { 204: empty('Deleted.'), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: '`output_not_found`: no kept copy of this task for the member.' }) },
}), async (c) => {
  const { state, tokenHash } = c.get('member');
  const deleted = await state.deleteOutput(tokenHash, c.req.param('taskId'));
  if (deleted === null) return toResponse(proxyUnauthorized());
  return deleted ? c.body(null, 204) : memberError(404, 'output_not_found', `No kept copy of task ${clip(c.req.param('taskId'))} exists for you.`, 'taskId');
});
