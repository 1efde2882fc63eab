import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import { clip, memberGroupListSchema, transferAnswerSchema, transferSchema } from '../../../../shared';
import { transferLibrary } from '../../domain/sharing/held-library';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject, ledgerObject, libraryObject, memberObject } from '../../objects/handles';
import { contextError } from '../answers';
import { readJsonBody } from '../json-body';
import { ADMIN, ADMIN_REFUSALS, empty, errors, INVALID_JSON, json, jsonBody, TOO_LARGE_JSON } from '../openapi/route-docs';
import type { AdminVars } from './admin-auth';

/** The admin's side of the team library (docs/team-library.md): a member's groups, transfer, the gallery. */
export const libraryAdmin = new Hono<{ Bindings: ProxyEnv; Variables: AdminVars }>();

const memberNotFound = (c: Context, id: string) => contextError(c)(404, 'member_not_found', `No member ${clip(id)} exists.`);

libraryAdmin.get('/members/:id/groups', describeRoute({
  summary: 'A member\'s groups and their sharing (revoked members included)',
  tags: ['admin'],
  security: ADMIN,
  responses: { 200: json('Every group the member owns, with its sharing.', memberGroupListSchema), ...errors({ ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member.' }) },
}), async (c) => {
  const id = c.req.param('id');
  if (!(await directoryObject(c.env).exists(id))) return memberNotFound(c, id);
  const overview = await memberObject(c.env, id).libraryOverview();
  return overview ? c.json(overview) : memberNotFound(c, id);
});

libraryAdmin.post('/members/:id/transfer', describeRoute({
  summary: 'Move every group of a member (with its assets and sharing) to another member',
  description: 'For a revoked member\'s library above all: revoking keeps their groups and sharing; this gives them an active owner.',
  tags: ['admin'],
  security: ADMIN,
  requestBody: jsonBody(transferSchema, '`to`: the id of an active member other than this one.'),
  responses: {
    200: json('How many groups and assets moved.', transferAnswerSchema),
    ...errors({ 400: `${INVALID_JSON} \`to\`: not an active member, or the member itself.`, ...ADMIN_REFUSALS, 404: '`member_not_found`: no such member.', 413: TOO_LARGE_JSON }),
  },
}), async (c) => {
  const body = await readJsonBody(c, transferSchema, contextError(c));
  if ('refused' in body) return body.refused;
  const fromId = c.req.param('id');
  const members = await directoryObject(c.env).list();
  if (!members.some((m) => m.id === fromId)) return memberNotFound(c, fromId);
  const to = members.find((m) => m.id === body.value.to && !m.revoked);
  if (!to || to.id === fromId) return contextError(c)(400, 'invalid_parameter', `to: ${to ? 'is the member whose groups move' : 'is not an active member of the team'}`, 'to');
  const ports = { from: memberObject(c.env, fromId), to: memberObject(c.env, to.id), team: libraryObject(c.env), audit: ledgerObject(c.env) };
  return c.json(await transferLibrary(ports, fromId, { id: to.id, name: to.name }, c.get('actor')));
});

libraryAdmin.delete('/gallery/:taskId', describeRoute({
  summary: 'Remove any video from the team gallery',
  tags: ['admin'],
  security: ADMIN,
  responses: { 204: empty('Removed.'), ...errors({ ...ADMIN_REFUSALS, 404: '`gallery_item_not_found`: not in the gallery.' }) },
}), async (c) => {
  const taskId = c.req.param('taskId');
  if ((await libraryObject(c.env).unpublish(taskId, null)) !== 'deleted') return contextError(c)(404, 'gallery_item_not_found', `Task ${clip(taskId)} is not in the gallery.`, 'taskId');
  await ledgerObject(c.env).audit(c.get('actor'), 'gallery.remove', taskId, {});
  return c.body(null, 204);
});
