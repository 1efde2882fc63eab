import { videoError, type CheckedVideoCreate, type QueuedCreate } from '../../../../shared';
import { jsonResponse, videoFailure, type ProxyResponse } from '../../infra/http/responses';
import type { Reservation, UpstreamBusy } from '../ledger/ledger-port';
import type { MemberContext } from '../members/member-context';
import type { Outcome } from '../members/idempotency';
import { checkReferences } from '../video/create-refusals';

/**
 * A create sent with `Prefer: respond-async` that cannot start now, queued with its reservation
 * held (docs/queue.md): 202 with the item. The answer is kept under the create's Idempotency-Key
 * like an accepted create, so a repeat answers the same item.
 */
export async function queueCreate(
  m: MemberContext,
  create: CheckedVideoCreate,
  json: unknown,
  reservation: Reservation,
  cap: number,
  busy: { retryAfter: number | null } | null,
): Promise<Outcome> {
  // The references are checked now, as a direct create's are: a queued create is one the proxy would send.
  if (!busy) {
    const rejected = await checkReferences(m, create);
    if (rejected) return { response: rejected, accepted: false };
    // Nothing goes upstream yet: the slot a direct create would take stays free for the launcher.
  } else await m.ledger().holdSlot(reservation.id);
  const { queued: _q, ...held } = reservation;
  const enqueued = await m.queue().enqueue({ member: m.memberId, model: create.body.model, body: JSON.stringify(json), reservation: held }, cap, busy);
  if (!enqueued.ok) {
    return { response: videoFailure(429, videoError('queue_full', `The create was not queued: ${enqueued.full}. Wait for some to launch.`, 'rate_limit_error')), accepted: false };
  }
  const { item } = enqueued;
  const answer: QueuedCreate = {
    id: item.id,
    object: 'queued_create',
    status: item.status,
    position: item.position,
    arkbridge: { cost: reservation.cost, estimate: reservation.cost, currency: reservation.currency, priced: reservation.priced },
  };
  return { response: jsonResponse(202, answer), accepted: true };
}

/** At the team's cap without `Prefer: respond-async`: 429 with Retry-After, and nothing sent to the service. */
export function upstreamBusy(busy: UpstreamBusy): ProxyResponse {
  const message = `The team has ${busy.running} tasks running at the video service, the most it allows at once (${busy.cap}); nothing was created. Wait ${busy.retryAfter} s, or send the create with "Prefer: respond-async" to have it queued.`;
  const error = { ...videoError('upstream_busy', message, 'rate_limit_error').error, running: busy.running, cap: busy.cap };
  return videoFailure(429, { error }, { 'Retry-After': String(Math.ceil(busy.retryAfter)) });
}
