import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { ASSET_ID_MAX, assetSourceAnswerSchema, assetSourceInputSchema, SOURCE_BATCH_MAX, sourceLookupAnswerSchema, sourceLookupSchema } from '../../../../shared';
import type { SourceCall } from '../../domain/sharing/asset-sources';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import { memberAnswer, type MemberEnv } from '../middleware/member-auth';
import { errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/** Where assets came from (docs/proxy-api.md#asset-sources): set by an asset's owner, read by whoever may see the asset. */
export const sourceRoutes = new Hono<MemberEnv>();

const sourceCall = async (c: { get: (k: 'member') => MemberEnv['Variables']['member'] }, call: SourceCall) => {
  const { state, tokenHash } = c.get('member');
  return memberAnswer(await state.sources(tokenHash, call), proxyUnauthorized);
};

sourceRoutes.put('/assets/:assetId/source', describeRoute({
  summary: 'Set where an asset came from (its owner only)',
  description:
    'The page it was captured from (`pageUrl` http(s), at most 2,048 characters; `pageTitle` at most 300; either may be null), when, and how. ' +
    'Control and bidirectional formatting characters are removed. Teammates who may see the asset through a shared group see its source (`POST /proxy/sources`). Setting it again replaces it.',
  tags: ['team'],
  security: MEMBER,
  requestBody: jsonBody(assetSourceInputSchema),
  responses: {
    200: json('The source as kept.', assetSourceAnswerSchema),
    ...errors({
      400: `${INVALID_JSON} A field out of bounds or of the wrong kind, or an unknown one; the message and \`param\` name it (\`pageUrl\`, \`pageTitle\`, \`capturedAt\`, \`how\`, \`assetId\`).`,
      401: UNAUTHORIZED_MEMBER,
      403: '`not_owner`: the caller may see the asset (a shared group) but does not own it.',
      404: '`asset_not_found`: no asset of the caller\'s, nor one shared with them (existence is not revealed).',
      413: TOO_LARGE_JSON,
    }),
  },
}), async (c) => {
  const assetId = c.req.param('assetId');
  if (assetId.length > ASSET_ID_MAX) return memberError(400, 'invalid_parameter', `assetId: must be at most ${ASSET_ID_MAX} characters`, 'assetId');
  const body = await readJsonBody(c, assetSourceInputSchema, memberError);
  if ('refused' in body) return body.refused;
  return sourceCall(c, { kind: 'put', assetId, source: body.value });
});

sourceRoutes.post('/sources', describeRoute({
  summary: 'The sources of up to 100 assets the caller may see',
  description:
    'Own assets, and assets of groups shared with the caller (any role). An id the caller may not see, or one with no source, is left out of `sources` alike: ' +
    'the answer never tells which. Repeated ids are answered once.',
  tags: ['team'],
  security: MEMBER,
  requestBody: jsonBody(sourceLookupSchema),
  responses: {
    200: json('A source per visible asset id that has one.', sourceLookupAnswerSchema),
    ...errors({
      400: `${INVALID_JSON} \`ids\` missing, empty, over ${SOURCE_BATCH_MAX} ids, or an id that is not a string of 1 to 128 characters (\`ids[i]\`).`,
      401: UNAUTHORIZED_MEMBER,
      413: TOO_LARGE_JSON,
    }),
  },
}), async (c) => {
  const body = await readJsonBody(c, sourceLookupSchema, memberError);
  if ('refused' in body) return body.refused;
  return sourceCall(c, { kind: 'lookup', ids: body.value.ids });
});
