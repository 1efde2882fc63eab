import { checkVideoCreate, invalidParameter, parseJsonBytes, type CheckedVideoCreate } from '../../../../shared';
import { allowHttpMedia, type ProxySettings } from '../../infra/settings/proxy-settings';
import { videoFailure, type ProxyResponse } from '../../infra/http/responses';

/**
 * The one check of a video create body (`POST /v1/video/generations`, and `POST /proxy/quote`
 * which prices the same body): JSON, the shape and the model catalog. A body the create refuses
 * is refused by the quote with the same 400, because both call this.
 */
export function readVideoCreate(env: ProxySettings, rawBody: ArrayBuffer): { refused: ProxyResponse } | { json: unknown; create: CheckedVideoCreate } {
  const parsed = parseJsonBytes(rawBody);
  if (!parsed.ok) return { refused: videoFailure(400, invalidParameter('body', `${parsed.message}.`)) };
  const checked = checkVideoCreate(parsed.value, { allowHttp: allowHttpMedia(env) });
  if (!checked.ok) return { refused: videoFailure(400, invalidParameter(checked.problem.field, checked.problem.message)) };
  return { json: parsed.value, create: checked.value };
}
