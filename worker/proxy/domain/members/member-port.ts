import type { MemberProfile, MemberScope, MemberScopeChange } from '../../../../shared';

/**
 * What the member directory asks of a member's own object (add, rotate, revoke, backfill, scope, sign-in), declared
 * apart from the object so that the directory depends on the calls, not on the class.
 */
export interface MemberPort {
  init(id: string, name: string, tokenHash: string, label?: string): Promise<MemberProfile>;
  rotate(tokenHash: string): Promise<boolean>;
  revoke(): Promise<boolean>;
  profile(): Promise<MemberProfile | null>;
  setScope(change: MemberScopeChange): Promise<MemberScope | null>;
  mintToken(label: string): Promise<{ id: string; label: string; token: string } | 'revoked' | 'expired' | 'full'>;
}
