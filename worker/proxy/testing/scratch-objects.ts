import { randomHex } from '../../../shared';
import type { LedgerPort } from '../domain/ledger/ledger-port';
import type { MemberState } from '../objects/member-state';
import { objectStub } from '../objects/object-stubs';
import type { TeamLedger } from '../objects/team-ledger';
import { proxyEnv } from './proxy-test-client';

/**
 * Objects of their own for unit tests of one object's rules: a ledger no other test writes to, a
 * member object no member uses. Real objects in workerd, with their real storage and schema.
 */

/** A ledger of its own (`name`: the same one again; a stub is made per call, as stubs belong to the request that made them). */
export const scratchLedger = (name = `scratch-${crypto.randomUUID()}`) => objectStub(proxyEnv.LEDGER, name) as unknown as DurableObjectStub<TeamLedger>;

/** A member id of the token's form, and its (empty) object. */
export function scratchMember(): { id: string; stub: DurableObjectStub<MemberState> } {
  const id = `m${randomHex(8)}`;
  return { id, stub: objectStub(proxyEnv.MEMBERS, id) as unknown as DurableObjectStub<MemberState> };
}

/** The scratch ledger `name` as the domain's port (objects/handles.ts checks that the class fits it). */
export const scratchLedgerPort = (name: string): LedgerPort => scratchLedger(name) as unknown as LedgerPort;
