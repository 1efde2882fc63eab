import { API_VERSION, check, clip, isAction, librarySchemas, parseJsonBytes, type Action } from '../../../../shared';
import { allowHttpMedia, upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { jsonResponse, libraryFailure, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import * as idempotency from '../members/idempotency';
import { isTimeout, libraryCall, type Upstream } from '../../infra/upstream/fetch';
import { relayLibrary } from './library-relay';
import { RULES, type Rule } from './rules';

export interface LibraryCall {
  action: string;
  version: string | null;
  body: ArrayBuffer;
  idempotencyKey: string | null;
}

const CREATES = new Set<Action>(['CreateAssetGroup', 'CreateAsset']);
const READS = new Set<string>(['ListAssetGroups', 'GetAssetGroup', 'ListAssets', 'GetAsset']);

/** A call other than a create that the service did not answer in time: nothing waits for it any more. */
const readTimeout = (action: Action, ms: number) =>
  libraryFailure(504, action, 'UpstreamTimeout', READS.has(action)
    ? `The asset library service did not answer within ${ms / 1000} s. Try again shortly.`
    : `The asset library service did not answer within ${ms / 1000} s; the change may still take effect. Read it back before trying again.`);
const invalid = (action: string, message: string) => libraryFailure(400, action, 'ValidationError', message);

const libraryKeyAnswers = (action: Action): idempotency.IdempotencyAnswers => ({
  invalidKey: (problem) => invalid(action, problem),
  inProgress: () => libraryFailure(409, action, 'IdempotencyInProgress', 'Idempotency-Key: a request with this key is still running; retry shortly with the same key.'),
  reused: () => libraryFailure(422, action, 'IdempotencyKeyReused', 'Idempotency-Key: this key was already used with a different body.'),
  stillRunning: (keyed) => libraryFailure(504, action, 'UpstreamTimeout', keyed
    ? 'The service has not answered yet; the create may still succeed. Retry with the same Idempotency-Key to get its result; do not create again without it.'
    : 'The service has not answered yet; the create may still succeed. List the group before creating again (send an Idempotency-Key to make retries safe).'),
});

/**
 * One `/api/v3` call of an authenticated member: validation with the shared schemas, the
 * idempotency record, the isolation rule, the signed upstream call, and what the member obtained.
 */
export async function handleLibrary(m: MemberContext, call: LibraryCall): Promise<ProxyResponse> {
  const { action } = call;
  if (!isAction(action)) return invalid(action, `Action: "${clip(action)}" is not an operation of the asset library interface.`);
  if (call.version !== API_VERSION) return invalid(action, `Version: must be ${API_VERSION}.`);
  const parsed = parseJsonBytes(call.body);
  if (!parsed.ok) return invalid(action, `${parsed.message}.`);
  const json = parsed.value;
  const checked = check(librarySchemas({ allowHttp: allowHttpMedia(m.env) })[action], json);
  if (!checked.ok) return invalid(action, checked.problem.message);

  const rule = RULES[action] as Rule;
  const create = CREATES.has(action);
  const send = async (): Promise<idempotency.Outcome> => {
    const before = rule.before ? await rule.before(m, checked.value) : { params: checked.value };
    if ('reply' in before) return { response: before.reply, accepted: false };
    let up: Upstream;
    try {
      // Creates go on after the member's deadline (their outcome is kept under the key); other calls are cut off.
      up = await libraryCall(m.env, action, before.params, create ? undefined : upstreamTimeoutMs(m.env));
    } catch (error) {
      if (isTimeout(error)) return { response: readTimeout(action, upstreamTimeoutMs(m.env)), accepted: false };
      return { response: libraryFailure(502, action, 'ServiceUnavailable', 'The asset library service could not be reached. Try again later.'), accepted: false };
    }
    const relayed = relayLibrary(action, up, before.secrets ?? []);
    if (!relayed.accepted) return relayed;
    const result = await rule.after?.(m, checked.value, relayed.envelope.Result);
    return { response: result === undefined ? relayed.response : jsonResponse(200, { ...relayed.envelope, Result: result }), accepted: true };
  };
  if (!create) return (await send()).response;
  const keyed = { sql: m.sql, scope: action, header: call.idempotencyKey, body: json, answers: libraryKeyAnswers(action) };
  return idempotency.idempotentCreate({ ...keyed, deadlineMs: upstreamTimeoutMs(m.env), waitUntil: m.waitUntil }, send);
}
