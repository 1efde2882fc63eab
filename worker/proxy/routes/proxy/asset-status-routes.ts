import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { ASSET_BATCH_MAX, ASSET_OUTCOME_DAYS, assetIdBatchSchema, assetStatusesAnswerSchema } from '../../../../shared';
import { toResponse } from '../../infra/http/responses';
import { memberError } from '../answers';
import { readJsonBody } from '../json-body';
import type { MemberEnv } from '../middleware/member-auth';
import { errors, INVALID_JSON, json, jsonBody, MEMBER, TOO_LARGE_JSON, UNAUTHORIZED_MEMBER } from '../openapi/route-docs';
import { proxyUnauthorized } from './proxy-auth';

/**
 * How the assets a member created through the proxy stand, as the proxy's own following of them
 * knows (docs/proxy-api.md#assets-followed-by-the-proxy): the member's browsers ask here, from
 * storage, rather than each polling the service.
 */
export const assetStatusRoutes = new Hono<MemberEnv>();

assetStatusRoutes.post('/assets/statuses', describeRoute({
  summary: 'How the caller\'s followed assets stand (no call to the service)',
  description:
    'The proxy follows every asset the caller creates through `CreateAsset` to `Active` or `Failed`. For each id it follows, or saw end in the last ' +
    `${ASSET_OUTCOME_DAYS} days, one entry, in the order asked (repeats once). An id it does not follow (another member's, created elsewhere or before, deleted), or of a group the caller holds no role on now, is left out: ask the service for those.`,
  tags: ['member'],
  security: MEMBER,
  requestBody: jsonBody(assetIdBatchSchema),
  responses: {
    200: json('An entry per followed id.', assetStatusesAnswerSchema),
    ...errors({
      400: `${INVALID_JSON} \`ids\` missing, empty, over ${ASSET_BATCH_MAX} ids, or an id that is not a string of 1 to 128 characters (\`ids[i]\`).`,
      401: UNAUTHORIZED_MEMBER,
      413: TOO_LARGE_JSON,
    }),
  },
}), async (c) => {
  const body = await readJsonBody(c, assetIdBatchSchema, memberError);
  if ('refused' in body) return body.refused;
  const { state, tokenHash } = c.get('member');
  const assets = await state.assetStatuses(tokenHash, body.value.ids);
  return assets ? c.json({ assets }) : toResponse(proxyUnauthorized());
});
