import type { LedgerPort } from '../domain/ledger/ledger-port';
import type { LauncherPort, QueuePort, SlotPort } from '../domain/queue/queue-port';
import type { MemberPort } from '../domain/members/member-port';
import type { AssetHolderPort, AuditPort, LibraryHolderPort, RosterPort, SourceHolderPort, TeamLibraryPort } from '../domain/sharing/sharing-ports';
import type { TeamWebhookPort, WebhookPort } from '../domain/webhooks/webhook-calls';
import type { ProxyEnv } from '../infra/settings/proxy-env';

/**
 * The one place a stub of the proxy's Durable Objects is made. Every object is found by name: a
 * member's by the member id, the directory and the ledger by a fixed name. An id is a pure function
 * of the name, so it is derived once per isolate and namespace, not per request; stubs are made per
 * call (they belong to the request that made them).
 *
 * Here stubs are untyped, or typed by the ports the domain declares: this is what the objects use
 * to reach one another, with no import of each other's class. handles.ts gives the routes the
 * stubs with their class types.
 */

type Namespaces = Pick<ProxyEnv, 'MEMBERS' | 'DIRECTORY' | 'LEDGER' | 'LIBRARY' | 'QUEUE'>;

export const DIRECTORY_NAME = 'directory';
export const LEDGER_NAME = 'team';
export const LIBRARY_NAME = 'library';
export const QUEUE_NAME = 'queue';

const ids = new WeakMap<DurableObjectNamespace, Map<string, DurableObjectId>>();
/** Member ids are many: the cache is cleared past this size rather than grown. */
const MAX_CACHED_IDS = 10_000;

/** The stub of the object named `name` in `namespace`. */
export function objectStub(namespace: DurableObjectNamespace, name: string): DurableObjectStub {
  let byName = ids.get(namespace);
  if (!byName) ids.set(namespace, (byName = new Map()));
  let id = byName.get(name);
  if (!id) {
    if (byName.size >= MAX_CACHED_IDS) byName.clear();
    byName.set(name, (id = namespace.idFromName(name)));
  }
  return namespace.get(id);
}

/** The team ledger, as the members' objects call it (handles.ts checks that the class answers these calls). */
export const ledgerPort = (env: Pick<Namespaces, 'LEDGER'>): LedgerPort => objectStub(env.LEDGER, LEDGER_NAME) as unknown as LedgerPort;

/** A member's object, as the directory calls it (handles.ts checks that the class answers these calls). */
export const memberPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): MemberPort => objectStub(env.MEMBERS, memberId) as unknown as MemberPort;

/** The team library, as the members' objects call it (docs/team-library.md). */
export const teamLibraryPort = (env: Pick<Namespaces, 'LIBRARY'>): TeamLibraryPort => objectStub(env.LIBRARY, LIBRARY_NAME) as unknown as TeamLibraryPort;

/** The directory, as the sharing rules read the team's members. */
export const rosterPort = (env: Pick<Namespaces, 'DIRECTORY'>): RosterPort => objectStub(env.DIRECTORY, DIRECTORY_NAME) as unknown as RosterPort;

/** The ledger's audit log, as the sharing rules write to it. */
export const auditPort = (env: Pick<Namespaces, 'LEDGER'>): AuditPort => objectStub(env.LEDGER, LEDGER_NAME) as unknown as AuditPort;

/** A member's object, as a transfer moves groups between members. */
export const libraryHolderPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): LibraryHolderPort =>
  objectStub(env.MEMBERS, memberId) as unknown as LibraryHolderPort;

/** The team's webhook (kept by the ledger), as members' objects hand it their events (docs/webhooks.md). */
export const teamWebhookPort = (env: Pick<Namespaces, 'LEDGER'>): TeamWebhookPort => objectStub(env.LEDGER, LEDGER_NAME) as unknown as TeamWebhookPort;

/** A member's webhook, as the ledger hands it an alert of the member's budget. */
export const memberWebhookPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): WebhookPort => objectStub(env.MEMBERS, memberId) as unknown as WebhookPort;

/** A member's object, as another member's reads the sources of assets shared with it (docs/team-library.md). */
export const sourceHolderPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): SourceHolderPort =>
  objectStub(env.MEMBERS, memberId) as unknown as SourceHolderPort;

/** A member's object, as another member's tells it that an asset of its library was deleted (an editor's delete). */
export const assetHolderPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): AssetHolderPort =>
  objectStub(env.MEMBERS, memberId) as unknown as AssetHolderPort;

/** The team's queue (docs/queue.md), as members' objects queue creates and tell it a slot may have freed. */
export const queuePort = (env: Pick<Namespaces, 'QUEUE'>): QueuePort => objectStub(env.QUEUE, QUEUE_NAME) as unknown as QueuePort;

/** The ledger, as the queue takes slots and releases reservations. */
export const slotPort = (env: Pick<Namespaces, 'LEDGER'>): SlotPort => objectStub(env.LEDGER, LEDGER_NAME) as unknown as SlotPort;

/** A member's object, as the queue launches that member's queued creates. */
export const launcherPort = (env: Pick<Namespaces, 'MEMBERS'>, memberId: string): LauncherPort => objectStub(env.MEMBERS, memberId) as unknown as LauncherPort;
