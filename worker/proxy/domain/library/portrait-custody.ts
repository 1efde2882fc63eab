import type { LibraryRequest, PortraitSession, ResolvedPortrait } from '../../../../shared';
import { libraryFailure, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { hasConsent } from '../members/consents';
import { own } from '../members/owned';
import { randomHex } from '../../../../shared';

/**
 * Portrait custody: the service's PartnerToken stays in the member's object; the member holds an
 * opaque handle that only they can resolve, once, before expiry.
 */

const reply = (status: number, action: string, code: string, message: string): { reply: ProxyResponse } => ({
  reply: libraryFailure(status, action, code, message),
});

export function requireConsent(m: MemberContext, params: LibraryRequest<'CreatePortraitSession'>) {
  return hasConsent(m.sql, 'portrait')
    ? { params }
    : reply(400, 'CreatePortraitSession', 'ValidationError', 'consent: show the real-person authorization rules and record the consent first (POST /proxy/consents {"scope":"portrait","rulesVersion":"..."}).');
}

const newHandle = () => `ph_${randomHex(24)}`;

export function issueHandle(m: MemberContext, _params: unknown, result: PortraitSession): PortraitSession {
  const handle = newHandle();
  const expiresAt = Date.parse(result.ExpireTime) || Date.now() + result.ExpiresIn * 1000;
  m.sql.exec("INSERT INTO portrait_handles VALUES (?, ?, ?, 'pending')", handle, result.PartnerToken, expiresAt);
  return { ...result, PartnerToken: handle };
}

interface HandleRow {
  partner_token: string;
  expires_at: number;
  state: string;
}

export function exchangeHandle(m: MemberContext, params: LibraryRequest<'ResolvePartnerToken'>) {
  const row = m.sql.exec('SELECT * FROM portrait_handles WHERE handle = ?', params.PartnerToken).toArray()[0] as HandleRow | undefined;
  if (!row) return reply(403, 'ResolvePartnerToken', 'AccessDenied', 'PartnerToken: this handle does not exist or belongs to another member.');
  if (row.state === 'resolved') return reply(400, 'ResolvePartnerToken', 'ValidationError', 'PartnerToken: this handle was already resolved and is no longer valid.');
  if (Date.now() >= row.expires_at) {
    return reply(400, 'ResolvePartnerToken', 'ValidationError', 'PartnerToken: this session has expired; create a new portrait session.');
  }
  return { params: { PartnerToken: row.partner_token }, secrets: [row.partner_token] };
}

export function completeHandle(m: MemberContext, params: LibraryRequest<'ResolvePartnerToken'>, result: ResolvedPortrait): ResolvedPortrait {
  own(m.sql, 'group', result.GroupId);
  // The service's token is spent: forget it.
  m.sql.exec("UPDATE portrait_handles SET state = 'resolved', partner_token = '' WHERE handle = ?", params.PartnerToken);
  return result;
}
