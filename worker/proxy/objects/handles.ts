import type { LedgerPort } from '../domain/ledger/ledger-port';
import type { LauncherPort, QueuePort, SlotPort } from '../domain/queue/queue-port';
import type { UploadIndexPort } from '../domain/media/upload-index';
import type { MemberPort } from '../domain/members/member-port';
import type { AssetHolderPort, AuditPort, LibraryHolderPort, RosterPort, SourceHolderPort, TeamLibraryPort } from '../domain/sharing/sharing-ports';
import type { TeamWebhookPort, WebhookPort } from '../domain/webhooks/webhook-calls';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import type { MemberDirectory } from './member-directory';
import type { MemberState } from './member-state';
import { DIRECTORY_NAME, LEDGER_NAME, LIBRARY_NAME, objectStub, QUEUE_NAME } from './object-stubs';
import type { TeamLedger } from './team-ledger';
import type { TeamLibrary } from './team-library';
import type { TeamQueue } from './team-queue';

/**
 * The handles of the proxy's Durable Objects with their class types, for the routes (and tests):
 * the untyped namespaces of the bindings (infra/settings/proxy-env.ts) get their classes here and
 * nowhere else. Stubs are made by object-stubs.ts.
 */

type Namespaces = Pick<ProxyEnv, 'MEMBERS' | 'DIRECTORY' | 'LEDGER' | 'LIBRARY' | 'QUEUE'>;

/** A member's own object (one per member, named by the member id). */
export const memberObject = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string) =>
  objectStub(env.MEMBERS, memberId) as unknown as DurableObjectStub<MemberState>;

/** The member directory (one per deployment): the admin API's list of members, console sessions. */
export const directoryObject = (env: Pick<Namespaces, 'DIRECTORY'>) =>
  objectStub(env.DIRECTORY, DIRECTORY_NAME) as unknown as DurableObjectStub<MemberDirectory>;

/** The team ledger (one per deployment): prices, budgets, reservations, audit. */
export const ledgerObject = (env: Pick<Namespaces, 'LEDGER'>) => objectStub(env.LEDGER, LEDGER_NAME) as unknown as DurableObjectStub<TeamLedger>;

/** The team library (one per deployment): shared groups, roles, the gallery. */
export const libraryObject = (env: Pick<Namespaces, 'LIBRARY'>) => objectStub(env.LIBRARY, LIBRARY_NAME) as unknown as DurableObjectStub<TeamLibrary>;

/** The team's queue (one per deployment): creates waiting for a slot at the service. */
export const queueObject = (env: Pick<Namespaces, 'QUEUE'>) => objectStub(env.QUEUE, QUEUE_NAME) as unknown as DurableObjectStub<TeamQueue>;

/**
 * The objects answer the calls the ports declare (object-stubs.ts casts to them): these compile
 * only while they do. Types only.
 */
export type PortsFit = [
  Assert<DurableObjectStub<TeamLedger> extends LedgerPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends MemberPort ? true : false>,
  Assert<DurableObjectStub<TeamLibrary> extends TeamLibraryPort ? true : false>,
  Assert<DurableObjectStub<MemberDirectory> extends RosterPort ? true : false>,
  Assert<DurableObjectStub<TeamLedger> extends AuditPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends LibraryHolderPort ? true : false>,
  Assert<DurableObjectStub<TeamLedger> extends TeamWebhookPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends WebhookPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends UploadIndexPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends SourceHolderPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends AssetHolderPort ? true : false>,
  Assert<DurableObjectStub<TeamQueue> extends QueuePort ? true : false>,
  Assert<DurableObjectStub<TeamLedger> extends SlotPort ? true : false>,
  Assert<DurableObjectStub<MemberState> extends LauncherPort ? true : false>,
];
type Assert<T extends true> = T;
