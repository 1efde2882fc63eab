import { clip, invalidParameter, pricedRequest, videoError, type CheckedVideoCreate } from '../../../../shared';
import { upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { videoFailure, type ProxyResponse } from '../../infra/http/responses';
import type { Reservation, SlotRequest } from '../ledger/ledger-port';
import { queueCreate, upstreamBusy } from '../queue/queue-create';
import type { MemberContext } from '../members/member-context';
import * as idempotency from '../members/idempotency';
import { own, owns } from '../members/owned';
import { isTimeout, videoCall, type Upstream } from '../../infra/upstream/fetch';
import { readVideoCreate } from './create-body';
import { checkReferences, ledgerRefusal } from './create-refusals';
import { relayVideo } from './video-relay';
import { keepRequest } from '../sharing/task-request';
import { retryAfterSeconds } from '../queue/backoff';
import { QUEUE_LIMITS } from '../queue/queue-book';

const unreachable = () => videoFailure(502, videoError('internal_error', 'The video service could not be reached. Try again later.', 'server_error'));

/** A read the service did not answer within the deadline, or could not be reached for. */
const readFailed = (m: MemberContext) => (error: unknown) =>
  isTimeout(error)
    ? videoFailure(504, videoError('upstream_timeout', `The video service did not answer within ${upstreamTimeoutMs(m.env) / 1000} s. Try again shortly.`, 'server_error'))
    : unreachable();

/** `GET /v1/models`, passed through. */
export async function listModels(m: MemberContext): Promise<ProxyResponse> {
  return videoCall(m.env, 'GET', '/v1/models', undefined, upstreamTimeoutMs(m.env)).then((up) => relayVideo(up).response, readFailed(m));
}

/**
 * `GET /v1/video/generations/{id}`: only the member's own tasks; a tracked task from its record
 * when fresh (domain/tracking/task-tracker.ts), one the proxy has no record of from the service.
 */
export async function getTask(m: MemberContext, id: string, origin: string): Promise<ProxyResponse> {
  if (!owns(m.sql, 'task', id)) {
    return videoFailure(404, videoError('task_not_found', `No task ${clip(id)} exists for you.`, 'invalid_request_error', 'task_id'));
  }
  try {
    const tracked = await m.tracker.answer(id, origin);
    if (tracked && 'upstream' in tracked) return relayVideo(tracked.upstream).response;
    if (tracked) return tracked;
  } catch (error) {
    return readFailed(m)(error);
  }
  return videoCall(m.env, 'GET', `/v1/video/generations/${encodeURIComponent(id)}`, undefined, upstreamTimeoutMs(m.env)).then(
    (up) => relayVideo(up).response,
    readFailed(m),
  );
}

/** `POST /v1/video/generations`: validated, idempotent, never retried by the proxy. */
export async function createTask(m: MemberContext, rawBody: ArrayBuffer, idempotencyKey: string | null, slot: SlotRequest = { cap: 0, queueable: false }): Promise<ProxyResponse> {
  // The shape and the catalog first: nothing of an invalid body is hashed, kept or sent.
  const read = readVideoCreate(m, rawBody);
  if ('refused' in read) return read.refused;
  const { json, create: checked } = read;
  const { body } = checked;
  const send = async (): Promise<idempotency.Outcome> => {
    // The budget first: nothing goes upstream, not even a reference check, for a refused create.
    // A body too large to keep in the queue is handled as a create that asked for no queue.
    const request = { ...slot, queueable: slot.queueable && rawBody.byteLength <= QUEUE_LIMITS.bodyBytes };
    const reservation = await m.ledger().reserve(m.memberId, pricedRequest(body), request);
    if (!reservation.ok) return { response: reservation.kind === 'busy' ? upstreamBusy(reservation) : ledgerRefusal(reservation), accepted: false };
    // In storage before anything goes upstream: a stop of the proxy from here on is found by the alarm.
    m.creates.begin(reservation.id, idempotencyKey === null ? null : idempotency.recordKey('video', idempotencyKey), body.model);
    let outcome: idempotency.Outcome | null = null;
    let resolved = false;
    try {
      // Queued (docs/queue.md): at the cap, behind others queued, or the service busy for this one.
      if (reservation.queued) outcome = await queueCreate(m, checked, json, reservation, request.cap, null);
      else {
        const sent = await sendCreate(m, checked, json, reservation);
        outcome = sent.busy && request.queueable ? await queueCreate(m, checked, json, reservation, request.cap, sent.busy) : sent;
      }
      return outcome;
    } finally {
      try {
        // Refused, failed or thrown without a task: the reservation goes back.
        if (!outcome?.accepted) await m.ledger().release(reservation.id);
        resolved = true;
      } finally {
        m.creates.end(reservation.id, resolved);
      }
    }
  };
  const keyed = { sql: m.sql, scope: 'video', header: idempotencyKey, body: json, answers: VIDEO_KEY_ANSWERS };
  return idempotency.idempotentCreate({ ...keyed, deadlineMs: upstreamTimeoutMs(m.env), waitUntil: m.waitUntil }, send);
}

/** The create itself, under a reservation: accepted tasks are owned, tracked and bound to it. */
async function sendCreate(m: MemberContext, create: CheckedVideoCreate, json: unknown, reservation: Reservation): Promise<idempotency.Outcome & { busy?: { retryAfter: number | null } }> {
  const rejected = await checkReferences(m, create);
  if (rejected) return { response: rejected, accepted: false };
  const started = Date.now();
  let up: Upstream;
  try {
    up = await videoCall(m.env, 'POST', '/v1/video/generations', JSON.stringify(json));
  } catch {
    return { response: unreachable(), accepted: false };
  }
  const { response, body } = relayVideo(up);
  const accepted = up.status === 200 && typeof body?.id === 'string' && typeof body?.status === 'string';
  const busy = up.status === 429 || up.status === 503 ? { retryAfter: retryAfterSeconds(up.retryAfter) } : undefined;
  if (!accepted) return { response, accepted: false, busy };
  own(m.sql, 'task', body.id);
  const answer = m.tracker.record(body, up.body, reservation, started);
  keepRequest(m.sql, body.id, json);
  // Reports name the task from now on; if this call fails, settling names it later.
  await m.ledger().bind(reservation.id, body.id, body.status).catch(() => undefined);
  return { response: { ...response, body: answer }, accepted: true };
}

const VIDEO_KEY_ANSWERS: idempotency.IdempotencyAnswers = {
  invalidKey: (problem) => videoFailure(400, invalidParameter('Idempotency-Key', problem)),
  inProgress: () => videoFailure(409, videoError('idempotency_in_progress', 'A request with this Idempotency-Key is still running; retry shortly with the same key.', 'invalid_request_error')),
  reused: () => videoFailure(422, videoError('idempotency_key_reused', 'This Idempotency-Key was already used with a different body.', 'invalid_request_error')),
  outcomeUnknown: () => videoFailure(409, videoError('create_outcome_unknown',
    'The earlier request with this Idempotency-Key was cut off when the proxy stopped, before the video service answered: whether it created a task is unknown, and it is not tracked or charged. Its reservation was released, so it is safe to retry: send the same request again (this key now creates afresh) to create the video.',
    'invalid_request_error')),
  stillRunning: (keyed) => videoFailure(504, videoError('upstream_timeout', keyed
    ? 'The video service has not answered yet; the task may still be created. Retry with the same Idempotency-Key to get its id; do not create again without it.'
    : 'The video service has not answered yet; the task may still be created. Send an Idempotency-Key so that a retry cannot create a second task.', 'server_error')),
};

/** One `/v1` call of an authenticated member, as the routes name it. */
export type VideoCall = { kind: 'models' } | { kind: 'get'; id: string; origin: string } | { kind: 'create'; body: ArrayBuffer; idempotencyKey: string | null; slot?: SlotRequest };

export function handleVideo(m: MemberContext, call: VideoCall): Promise<ProxyResponse> {
  if (call.kind === 'models') return listModels(m);
  if (call.kind === 'get') return getTask(m, call.id, call.origin);
  return createTask(m, call.body, call.idempotencyKey, call.slot);
}
