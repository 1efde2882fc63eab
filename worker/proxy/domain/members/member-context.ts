import type { MemberScope } from '../../../../shared';
import type { ProxySettings } from '../../infra/settings/proxy-settings';
import type { LedgerPort } from '../ledger/ledger-port';
import type { QueuePort } from '../queue/queue-port';
import type { TeamLibraryPort } from '../sharing/sharing-ports';
import type { TaskTracker } from '../tracking/task-tracker';
import type { CreatesInFlight } from '../video/creates-in-flight';
import type { AssetFollower } from '../tracking/asset-follower';
import type { RemovalNotes } from '../sharing/removal-notes';

/** What request handling inside a member's object needs; the object builds it (objects/member-state.ts). */
export interface MemberContext {
  sql: SqlStorage;
  env: ProxySettings;
  memberId: string;
  /** Keeps work alive after the response (an upstream create that outlived the client's wait). */
  waitUntil(promise: Promise<unknown>): void;
  /** The team's ledger: prices, budgets, reservations (a fresh handle per call). */
  ledger(): LedgerPort;
  /** The team's queue of creates waiting for a slot at the service (a fresh handle per call). */
  queue(): QueuePort;
  /** The team library: shared groups and roles, consulted only for ids that are not the member's (a fresh handle per call). */
  team(): TeamLibraryPort;
  /** The member's tracked tasks. */
  tracker: TaskTracker;
  /** The member's video creates on their way to the service (resolved on the alarm if cut off). */
  creates: CreatesInFlight;
  /** The models the member may spend on, and when their tokens expire (domain/members/member-scope.ts). */
  scope: MemberScope;
  /** The assets the member created, followed to Active or Failed (asset.* webhook events). */
  assets: AssetFollower;
  /** Deleted assets the team library and their owners are still to be told of (domain/sharing/asset-removals.ts). */
  removals: RemovalNotes;
}
