import type { PricedRequest, PriceUnit, QuoteAnswer, UsageView } from '../../../../shared';
import type { UnknownCreate } from './orphan-sweep';

/**
 * What the rules outside the ledger ask of the team's ledger, declared here so that they never
 * depend on the object that keeps it: the ledger's object (objects/team-ledger.ts) answers these
 * calls, and whoever holds its handle (objects/handles.ts) passes it in.
 */

/** A create allowed to start: its reservation and what it costs. */
export interface Reservation {
  ok: true;
  id: string;
  cost: number;
  currency: string;
  priced: boolean;
  unit: PriceUnit;
  /** The output tokens reserved for; null when the table is per second. */
  tokens: number | null;
  /** With a queueable slot request: held for the gateway's queue rather than sent now (docs/queue.md). */
  queued?: boolean;
}

/** How a create asks for a slot at the service (docs/queue.md): the cap, and whether it would rather be queued than refused. */
export interface SlotRequest {
  cap: number;
  queueable: boolean;
}

/** A create that may not go to the service now: the team is at its cap (domain/queue/upstream-slots.ts). */
export interface UpstreamBusy {
  ok: false;
  kind: 'busy';
  running: number;
  cap: number;
  /** Seconds: when a slot may free at the earliest (the tracking interval). */
  retryAfter: number;
}

/** A settled task's figures, in the currency: what was charged and what had been reserved. */
export interface Settled {
  cost: number;
  estimate: number;
  tokens: number | null;
  overrun: boolean;
}

/** A create refused, with the numbers its message names (amounts in the currency). */
export type Refused = { ok: false; currency: string; message: string } & (
  | { kind: 'running'; running: number; maxRunning: number }
  | { kind: 'budget'; scope: 'member' | 'team'; remaining: number; cost: number }
  | { kind: 'price_unknown'; model: string }
);

/** How a tracked task ended, for its charge. */
export type Ending = 'completed' | 'failed' | 'expired';

/** Bytes a member keeps in the media store, by kind. */
export type StorageKind = 'uploads' | 'outputs';

/** The media store's bookkeeping of bytes per member (uploads, deletes, kept outputs, cleanup). */
export interface StorageLedger {
  addStorage(member: string, kind: StorageKind, delta: number): Promise<unknown>;
}

/** The calls a member's requests and tracked tasks make to the ledger. */
export interface LedgerPort extends StorageLedger {
  /** Prices a create and reserves its cost, or refuses it (docs/budgets.md). */
  reserve(member: string, request: PricedRequest, slot?: SlotRequest): Promise<Reservation | Refused | UpstreamBusy>;
  /** The service was busy for this create: its reservation held for the queue again, its slot given back. */
  holdSlot(reservation: string): Promise<unknown>;
  /** The create was refused or failed without a task: the reservation goes back. */
  release(reservation: string): Promise<unknown>;
  /** A create cut off with its outcome unknown: released (when still unbound) and audited as `create.unknown`. */
  unknownCreate(reservation: string, create: UnknownCreate): Promise<boolean>;
  /** The service accepted the create: the reservation now belongs to this task. */
  bind(reservation: string, taskId: string, status: string): Promise<unknown>;
  /** A tracked task's status changed (not yet ended). */
  status(reservation: string, status: string): Promise<unknown>;
  /** A tracked task ended: charged or released by how it ended; answers the settled figures (null: no such charge). */
  settle(reservation: string, taskId: string, ending: Ending, tokens: number | null, memberName?: string | null): Promise<Settled | null>;
  /** What a create would reserve, with nothing reserved (POST /proxy/quote). */
  quote(member: string, request: PricedRequest): Promise<QuoteAnswer>;
  /** `quote`, or what `reserve` would refuse, with nothing reserved or audited (POST /proxy/quote). */
  quoteCreate(member: string, request: PricedRequest): Promise<QuoteAnswer | Refused>;
  /** The member's budget, the team's, alerts and storage (GET /proxy/usage). */
  usage(member: string): Promise<UsageView>;
}
