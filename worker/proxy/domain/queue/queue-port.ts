import type { QueueItem } from '../../../../shared';
import type { Reservation } from '../ledger/ledger-port';
import type { NewItem } from './queue-book';
import type { Claim } from './upstream-slots';

/**
 * What the queue's rules ask of other objects, and what they ask of the queue (docs/queue.md). The
 * objects answer these; objects/handles.ts checks that their classes fit.
 */

/** The ledger, where slots are counted (domain/queue/upstream-slots.ts) and reservations kept. */
export interface SlotPort {
  claimSlot(reservation: string, cap: number): Promise<Claim>;
  holdSlot(reservation: string): Promise<unknown>;
  release(reservation: string): Promise<unknown>;
  lastLaunches(members: string[]): Promise<Record<string, number>>;
}

/** A queued create, as its member's object launches it. */
export interface LaunchOrder {
  id: string;
  /** When the item was queued (ms): part of what a `task.failed` event of a refused launch says. */
  createdAt: number;
  model: string;
  body: string;
  reservation: Reservation;
}

export type LaunchResult =
  | { kind: 'launched'; taskId: string }
  /** The service answered 429 or 503 (or could not be reached): the create stays queued. */
  | { kind: 'busy'; retryAfter: number | null }
  /** The service refused the create: its error; the reservation was released. */
  | { kind: 'failed'; error: { code: string; message: string } }
  /** The member's object is still sending it (the queue asks again later). */
  | { kind: 'pending' };

/** A member's object, as the queue launches that member's queued creates. */
export interface LauncherPort {
  launchQueued(order: LaunchOrder): Promise<LaunchResult>;
}

export type Enqueued = { ok: true; item: QueueItem } | { ok: false; full: string };

/** The team's queue, as members' objects and the routes call it. */
export interface QueuePort {
  /** `busy`: the service just answered 429/503 to this create (its Retry-After, seconds, or null). */
  enqueue(item: NewItem, cap: number, busy: { retryAfter: number | null } | null): Promise<Enqueued>;
  /** A slot may have freed (a task ended): the queue looks now. */
  nudge(): Promise<void>;
}
