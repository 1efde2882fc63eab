import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { groupSharingSchema, sharedGroupListSchema, sharingChangeSchema, teamMemberListSchema } from '../../../../shared';
import type { SharingCall } from '../../domain/sharing/sharing-handler';
import { toResponse } from '../../infra/http/responses';
import { directoryObject } from '../../objects/handles';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import { memberAnswer, type MemberEnv } from '../middleware/member-auth';
import { errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** Groups shared with roles (docs/team-library.md): a group's sharing, what is shared with the caller, whom to share with. */
export const sharingRoutes = new Hono<MemberEnv>();

const GROUP_NOT_FOUND = '`group_not_found`: no such group, or one the caller neither owns nor holds a role on (existence is not revealed).';
const UPSTREAM = {
  502: '`internal_error`: the service could not be asked for the group (its name and type are read when it is first shared).',
  504: '`upstream_timeout`: the service did not answer in time.',
};

const sharingCall = async (c: { get: (k: 'member') => MemberEnv['Variables']['member'] }, call: SharingCall) => {
  const { state, tokenHash } = c.get('member');
  return memberAnswer(await state.sharing(tokenHash, call), proxyUnauthorized);
};

sharingRoutes.get('/groups/:groupId/sharing', describeRoute({
  summary: 'Who may use a group, and how',
  description: 'For the group\'s owner and for any member holding a role on it.',
  tags: ['team'],
  security: MEMBER,
  responses: { 200: json('The group\'s sharing.', groupSharingSchema), ...errors({ 401: UNAUTHORIZED_MEMBER, 404: GROUP_NOT_FOUND, ...UPSTREAM }) },
}), (c) => sharingCall(c, { kind: 'get', groupId: c.req.param('groupId') }));

sharingRoutes.put('/groups/:groupId/sharing', describeRoute({
  summary: 'Share a group with the team or with members (its owner only)',
  description:
    'Roles: `viewer` (read, list, reference in video creates), `editor` (also add, rename and delete assets, rename the group), `none`. ' +
    'A member entry overrides the team role for that member. Fields left out keep their value. A real-person (`LivenessFace`) group can be shared as `viewer` only. Takes effect at once.',
  tags: ['team'],
  security: MEMBER,
  requestBody: jsonBody(sharingChangeSchema),
  responses: {
    200: json('The group\'s sharing after the change.', groupSharingSchema),
    ...errors({
      400: `${INVALID_JSON} An unknown role, field or member id (\`members.<id>\`), the owner's own id, or \`editor\` on a real-person group.`,
      401: UNAUTHORIZED_MEMBER,
      403: '`not_owner`: the caller holds a role on the group but does not own it.',
      404: GROUP_NOT_FOUND,
      413: TOO_LARGE_JSON,
      ...UPSTREAM,
    }),
  },
}), async (c) => {
  const body = await readJsonBody(c, sharingChangeSchema, memberError);
  if ('refused' in body) return body.refused;
  return sharingCall(c, { kind: 'put', groupId: c.req.param('groupId'), change: body.value });
});

sharingRoutes.get('/shared', describeRoute({
  summary: 'The groups other members share with the caller',
  tags: ['team'],
  security: MEMBER,
  responses: { 200: json('Newest share first.', sharedGroupListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), (c) => sharingCall(c, { kind: 'shared' }));

sharingRoutes.get('/team', describeRoute({
  summary: 'The team\'s active members other than the caller: whom to share with',
  tags: ['team'],
  security: MEMBER,
  responses: { 200: json('Ids and names; no tokens, no revoked members.', teamMemberListSchema), ...errors({ 401: UNAUTHORIZED_MEMBER }) },
}), async (c) => {
  const { id, state, tokenHash } = c.get('member');
  if (!(await state.me(tokenHash))) return toResponse(proxyUnauthorized());
  const members = (await directoryObject(c.env).list()).filter((m) => !m.revoked && m.id !== id).map((m) => ({ id: m.id, name: m.name }));
  return c.json({ members });
});
