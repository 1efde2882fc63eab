import type { PortraitSession, ResolvedPortrait } from '@@/shared';
import type { Problem } from '@/lib/proxy/failure-message';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { StoredSession } from '@/lib/storage/records/setting-values';

/**
 * The real-person (portrait) flow of the popup.
 *
 *   rules ──agree──▶ consenting ──consented──▶ creating ──created──▶ showing ──resolved──▶ storing ──stored──▶ resolved
 *     ▲                  │ consentFailed          │ createFailed      │ ▲ pending / unsteady      │ storeFailed
 *     └──────────────────┘                        ▼                   │ └──(poll again)           ▼
 *                                               error ◀──pollFailed───┤                         error
 *                                                                     └──expired──▶ creating (a fresh code, at most
 *                                                                                   AUTO_RENEWALS times) or expired
 *
 * The consent gate: `creating` is reachable only through `consenting` → `consented`, i.e. after
 * `POST /proxy/consents` succeeded, or from a code already shown in this flow (a fresh code on
 * expiry, a retry). This module is the pure transition table; `PortraitFlow` (portrait-flow) runs the
 * effect of each state (consent call, CreatePortraitSession, one ResolvePartnerToken per `showing`
 * state, storing).
 */

/** Fresh codes made automatically when a code expires, before the flow stops in `expired`. */
export const AUTO_RENEWALS = 3;

export type Session = StoredSession;

/** What `retry` does from `error`. */
export type Retry =
  /** Make a new code (the consent of this flow is on record). */
  | { kind: 'create'; continuous: boolean }
  /** The group was resolved (the handle is spent): list and store its assets again, never resolve again. */
  | { kind: 'store'; resolved: ResolvedPortrait };

export type PortraitState =
  /** The rules, before any call. `problem`: the last consent call failed. */
  | { kind: 'rules'; problem?: Problem }
  /** POST /proxy/consents under way. */
  | { kind: 'consenting'; continuous: boolean }
  /** CreatePortraitSession under way; `renewals` fresh codes were made before this one. */
  | { kind: 'creating'; continuous: boolean; renewals: number }
  /** The QR code is shown; each `showing` state is one wait plus one ResolvePartnerToken check. */
  | { kind: 'showing'; session: Session; problem?: Problem; waitMs?: number }
  /** The person finished: the group is stored, its assets listed and stored. */
  | { kind: 'storing'; resolved: ResolvedPortrait }
  | { kind: 'resolved'; group: GroupRecord; assets: AssetRecord[] }
  /** The code expired AUTO_RENEWALS + 1 times: the member asks for a new one. */
  | { kind: 'expired'; continuous: boolean }
  | { kind: 'error'; problem: Problem; retry: Retry };

export type PortraitEvent =
  | { type: 'agree'; continuous: boolean }
  | { type: 'consented' }
  | { type: 'consentFailed'; problem: Problem }
  | { type: 'created'; session: PortraitSession; now: number }
  | { type: 'createFailed'; problem: Problem }
  | { type: 'pending' }
  /** A check failed for a passing reason (offline, proxy busy): keep the code, check again. */
  | { type: 'unsteady'; problem: Problem; waitMs?: number }
  | { type: 'expired' }
  | { type: 'resolved'; resolved: ResolvedPortrait }
  | { type: 'pollFailed'; problem: Problem }
  | { type: 'stored'; group: GroupRecord; assets: AssetRecord[] }
  | { type: 'storeFailed'; problem: Problem }
  | { type: 'cancel' }
  | { type: 'renew' }
  | { type: 'retry' }
  | { type: 'done' }
  /** A code stored by an earlier popup, still valid: show it again and keep checking. */
  | { type: 'resume'; session: Session };

/**
 * When the code expires, on this computer's clock: `ExpiresIn` counted from the answer's arrival,
 * so a computer clock that is off does not end the code early or late; `ExpireTime` when
 * `ExpiresIn` is missing.
 */
export function expiryOf(session: PortraitSession, now: number): number {
  if (typeof session.ExpiresIn === 'number' && Number.isFinite(session.ExpiresIn) && session.ExpiresIn > 0) return now + session.ExpiresIn * 1000;
  const at = Date.parse(session.ExpireTime);
  return Number.isNaN(at) ? now : at;
}

/** The next state; the same object when the event does not apply to the state (ignored). */
export function transition(state: PortraitState, event: PortraitEvent): PortraitState {
  switch (event.type) {
    case 'agree':
      return state.kind === 'rules' ? { kind: 'consenting', continuous: event.continuous } : state;
    case 'consented':
      return state.kind === 'consenting' ? { kind: 'creating', continuous: state.continuous, renewals: 0 } : state;
    case 'consentFailed':
      return state.kind === 'consenting' ? { kind: 'rules', problem: event.problem } : state;
    case 'created':
      if (state.kind !== 'creating') return state;
      return {
        kind: 'showing',
        session: {
          h5Link: event.session.H5Link,
          handle: event.session.PartnerToken,
          expiresAt: expiryOf(event.session, event.now),
          renewals: state.renewals,
          continuous: state.continuous,
        },
      };
    case 'createFailed':
      return state.kind === 'creating' ? { kind: 'error', problem: event.problem, retry: { kind: 'create', continuous: state.continuous } } : state;
    case 'pending':
      return state.kind === 'showing' ? { kind: 'showing', session: state.session } : state;
    case 'unsteady':
      if (state.kind !== 'showing') return state;
      return event.waitMs === undefined
        ? { kind: 'showing', session: state.session, problem: event.problem }
        : { kind: 'showing', session: state.session, problem: event.problem, waitMs: event.waitMs };
    case 'expired': {
      if (state.kind !== 'showing') return state;
      const { renewals, continuous } = state.session;
      return renewals < AUTO_RENEWALS ? { kind: 'creating', continuous, renewals: renewals + 1 } : { kind: 'expired', continuous };
    }
    case 'resolved':
      return state.kind === 'showing' ? { kind: 'storing', resolved: event.resolved } : state;
    case 'pollFailed':
      return state.kind === 'showing' ? { kind: 'error', problem: event.problem, retry: { kind: 'create', continuous: state.session.continuous } } : state;
    case 'stored':
      return state.kind === 'storing' ? { kind: 'resolved', group: event.group, assets: event.assets } : state;
    case 'storeFailed':
      return state.kind === 'storing' ? { kind: 'error', problem: event.problem, retry: { kind: 'store', resolved: state.resolved } } : state;
    case 'cancel':
      return ['consenting', 'creating', 'showing', 'expired', 'error'].includes(state.kind) ? { kind: 'rules' } : state;
    case 'renew':
      return state.kind === 'expired' ? { kind: 'creating', continuous: state.continuous, renewals: 0 } : state;
    case 'retry':
      if (state.kind !== 'error') return state;
      return state.retry.kind === 'create'
        ? { kind: 'creating', continuous: state.retry.continuous, renewals: 0 }
        : { kind: 'storing', resolved: state.retry.resolved };
    case 'done':
      return state.kind === 'resolved' ? { kind: 'rules' } : state;
    case 'resume':
      return state.kind === 'rules' ? { kind: 'showing', session: event.session } : state;
  }
}
