import { API_VERSION, check, clip, isAction, librarySchemas, parseJsonBytes, type Action } from '../../../shared';
import { allowHttpMedia, upstreamTimeoutMs } from '../env';
import { jsonResponse, libraryFailure, type ProxyResponse } from '../http/responses';
import type { MemberContext } from '../members/context';
import * as idempotency from '../members/idempotency';
import { isTimeout, libraryCall, withDeadline } from '../upstream/fetch';
import { relayLibrary } from './relay';
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

  const key = CREATES.has(action) && call.idempotencyKey !== null ? `${action}:${call.idempotencyKey}` : null;
  if (key) {
    const problem = idempotency.keyProblem(call.idempotencyKey!);
    if (problem) return invalid(action, problem);
    const found = idempotency.begin(m.sql, key, await idempotency.bodyHash(json));
    if (found.kind === 'replay') return found.response;
    if (found.kind === 'in_progress') return libraryFailure(409, action, 'IdempotencyInProgress', 'Idempotency-Key: a request with this key is still running; retry shortly with the same key.');
    if (found.kind === 'reused') return libraryFailure(422, action, 'IdempotencyKeyReused', 'Idempotency-Key: this key was already used with a different body.');
  }

  const rule = RULES[action] as Rule;
  const before = rule.before ? rule.before(m, checked.value) : { params: checked.value };
  if ('reply' in before) {
    if (key) idempotency.abandon(m.sql, key);
    return before.reply;
  }
  const create = CREATES.has(action);
  // Creates go on after the member's deadline (their outcome is kept under the key); other calls are cut off.
  const run = libraryCall(m.env, action, before.params, create ? undefined : upstreamTimeoutMs(m.env)).then(
    (up) => {
      const relayed = relayLibrary(action, up, before.secrets ?? []);
      if (!relayed.accepted) {
        if (key) idempotency.abandon(m.sql, key);
        return relayed.response;
      }
      const result = rule.after?.(m, checked.value, relayed.envelope.Result);
      const response = result === undefined ? relayed.response : jsonResponse(200, { ...relayed.envelope, Result: result });
      if (key) idempotency.complete(m.sql, key, response);
      return response;
    },
    (error) => {
      if (key) idempotency.abandon(m.sql, key);
      if (isTimeout(error)) return readTimeout(action, upstreamTimeoutMs(m.env));
      return libraryFailure(502, action, 'ServiceUnavailable', 'The asset library service could not be reached. Try again later.');
    },
  );
  if (!create) return run;
  const answered = await withDeadline(run, upstreamTimeoutMs(m.env));
  if (answered) return answered;
  // The service is slow: the call goes on and its outcome is kept under the key.
  m.waitUntil(run);
  return libraryFailure(504, action, 'UpstreamTimeout', key
    ? 'The service has not answered yet; the create may still succeed. Retry with the same Idempotency-Key to get its result; do not create again without it.'
    : 'The service has not answered yet; the create may still succeed. List the group before creating again (send an Idempotency-Key to make retries safe).');
}
