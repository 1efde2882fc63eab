import { invalidParameter, readinessFor, videoError, type Asset, type CheckedVideoCreate } from '../../../../shared';
import { upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { videoFailure, type ProxyResponse } from '../../infra/http/responses';
import { isTimeout, libraryCall, type Upstream } from '../../infra/upstream/fetch';
import type { Refused } from '../ledger/ledger-port';
import type { MemberContext } from '../members/member-context';
import { unreachableAssets } from '../sharing/shared-access';

/**
 * The refusals of a video create after its body was read (create-body.ts), in the order the create
 * meets them: the ledger's (budget, price, running tasks), then the `asset://` references (the
 * member's, and Active for the model). `POST /proxy/quote` answers a body with these same
 * refusals, so that a quote never promises what the create then refuses.
 */

/** A create the ledger does not allow: 402 with the amounts or the unpriced model, or 429 for too many running tasks. */
export function ledgerRefusal(refused: Refused): ProxyResponse {
  if (refused.kind === 'price_unknown') {
    const error = { ...videoError('price_unknown', refused.message, 'insufficient_quota', 'model').error, model: refused.model };
    return videoFailure(402, { error });
  }
  if (refused.kind === 'running') {
    const error = { ...videoError('too_many_running_tasks', refused.message, 'rate_limit_error').error, running: refused.running, maxRunning: refused.maxRunning };
    return videoFailure(429, { error });
  }
  const error = {
    ...videoError('budget_exceeded', refused.message, 'insufficient_quota').error,
    scope: refused.scope,
    remaining: refused.remaining,
    cost: refused.cost,
    currency: refused.currency,
  };
  return videoFailure(402, { error });
}

/**
 * Checks that each `asset://` reference is the member's (or shared with it) and Active for the model, with one
 * GetAsset per referenced asset, in parallel. Answers the first problem, or null.
 */
async function libraryReferenceProblem(m: MemberContext, model: string, refs: CheckedVideoCreate['references']): Promise<ProxyResponse | null> {
  const library = refs.filter((r) => r.assetId !== null);
  // The member's own assets, or ones of a group shared with it (one call to the team library for those).
  const unreachable = await unreachableAssets(m, library.map((r) => r.assetId!));
  for (const ref of library) {
    if (unreachable.has(ref.assetId!)) {
      return videoFailure(400, invalidParameter(ref.param, `${ref.param}: asset ${ref.assetId} is not in your library.`));
    }
  }
  const timeoutMs = upstreamTimeoutMs(m.env);
  const assets = await Promise.all(library.map((ref) => libraryCall(m.env, 'GetAsset', { Id: ref.assetId }, timeoutMs).then((up) => ({ ref, up }))));
  for (const { ref, up } of assets) {
    const busy = serviceBusy(up, ref.param);
    if (busy) return busy;
    const envelope = JSON.parse(up.body) as { Result?: Asset; ResponseMetadata: { Error?: { Code: string } } };
    const asset = envelope.Result;
    if (!asset) {
      const code = envelope.ResponseMetadata?.Error?.Code;
      // Only a refusal about the asset itself is the member's problem; anything else is the service's.
      if (code === 'AccessDenied') return videoFailure(400, invalidParameter(ref.param, `${ref.param}: asset ${ref.assetId} is no longer in the library.`));
      return videoFailure(502, videoError('internal_error', `Could not check ${ref.param} with the asset library service (${code ?? `HTTP ${up.status}`}). Try again later.`, 'server_error'));
    }
    const { status, message, usable } = readinessFor(asset, model);
    const why = message ? ` (${message})` : '';
    if (usable === 'never') {
      // Never going to be usable with this model: not retryable.
      return videoFailure(400, invalidParameter(ref.param, `${ref.param}: asset ${ref.assetId} is ${status} for ${model}${why} and cannot be used with it.`));
    }
    if (usable === 'wait') {
      return videoFailure(409, videoError('asset_not_ready', `${ref.param}: asset ${ref.assetId} is ${status} for ${model}${why}; retry when it is Active.`, 'invalid_request_error', ref.param));
    }
  }
  return null;
}

/**
 * A 429 or 5xx of the asset library while checking a reference: the service is busy, not the
 * member's request wrong. Passed on with its status and Retry-After, as for every other call.
 */
function serviceBusy(up: Upstream, param: string): ProxyResponse | null {
  if (up.status !== 429 && up.status < 500) return null;
  const headers: Record<string, string> = up.retryAfter ? { 'Retry-After': up.retryAfter } : {};
  return up.status === 429
    ? videoFailure(429, videoError('rate_limited', `The asset library service is rate limiting the check of ${param}. Wait before trying again; do not resubmit repeatedly.`, 'rate_limit_error'), headers)
    : videoFailure(up.status, videoError('internal_error', `The asset library service answered HTTP ${up.status} while checking ${param}. Try again later.`, 'server_error'), headers);
}

export async function checkReferences(m: MemberContext, create: CheckedVideoCreate): Promise<ProxyResponse | null> {
  try {
    return await libraryReferenceProblem(m, create.body.model, create.references);
  } catch (error) {
    if (isTimeout(error)) {
      return videoFailure(504, videoError('upstream_timeout', `The asset library service did not answer within ${upstreamTimeoutMs(m.env) / 1000} s while checking the library references; nothing was created. Try again shortly.`, 'server_error'));
    }
    return videoFailure(502, videoError('internal_error', 'Could not check the library references with the asset library service. Try again later.', 'server_error'));
  }
}
