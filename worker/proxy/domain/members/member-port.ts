import type { MemberProfile } from '../../../../shared';

/**
 * What the member directory asks of a member's own object (add, rotate, revoke, backfill), declared
 * apart from the object so that the directory depends on the calls, not on the class.
 */
export interface MemberPort {
  init(id: string, name: string, tokenHash: string): Promise<MemberProfile>;
  rotate(tokenHash: string): Promise<boolean>;
  revoke(): Promise<boolean>;
  profile(): Promise<MemberProfile | null>;
}
