import { checkVideoCreate, invalidParameter, parseJsonBytes, type CheckedVideoCreate } from '../../../../shared';
import { allowHttpMedia } from '../../infra/settings/proxy-settings';
import { videoFailure, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { modelRefusal } from '../members/member-scope';

/**
 * The one check of a video create body (`POST /v1/video/generations`, and `POST /proxy/quote`
 * which prices the same body): JSON, the shape and the model catalog. A body the create refuses
 * is refused by the quote with the same 400, because both call this. Then the member's scope: a model
 * the member may not use is 403 `model_not_allowed`, before anything is priced or reserved.
 */
export function readVideoCreate(m: Pick<MemberContext, 'env' | 'scope'>, rawBody: ArrayBuffer): { refused: ProxyResponse } | { json: unknown; create: CheckedVideoCreate } {
  const parsed = parseJsonBytes(rawBody);
  if (!parsed.ok) return { refused: videoFailure(400, invalidParameter('body', `${parsed.message}.`)) };
  const checked = checkVideoCreate(parsed.value, { allowHttp: allowHttpMedia(m.env) });
  if (!checked.ok) return { refused: videoFailure(400, invalidParameter(checked.problem.field, checked.problem.message)) };
  const outOfScope = modelRefusal(m.scope, checked.value.body.model);
  if (outOfScope) return { refused: outOfScope };
  return { json: parsed.value, create: checked.value };
}
