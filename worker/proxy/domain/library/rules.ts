import type { Action, LibraryRequest, Page } from '../../../../shared';
import { libraryFailure, librarySuccess, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { disown, own, owns, ownedIds, type OwnedKind } from '../members/owned';
import * as portrait from './portrait-custody';

/**
 * What the proxy adds to each operation: `before` checks ownership and scopes the request (or
 * answers it without an upstream call); `after` records what the member obtained.
 */
export interface Rule<A extends Action = Action> {
  before?(m: MemberContext, params: LibraryRequest<A>): { params: unknown; secrets?: string[] } | { reply: ProxyResponse };
  after?(m: MemberContext, params: LibraryRequest<A>, result: any): unknown;
}

const denied = (action: Action, what: string, id: string) =>
  ({ reply: libraryFailure(403, action, 'AccessDenied', `${what} ${id} does not exist or you have no access to it.`) }) as const;

/** The operation's id must be one the member obtained. */
const mustOwn = <A extends Action>(action: A, kind: OwnedKind, what: string, field: (p: LibraryRequest<A>) => string): Rule<A>['before'] =>
  (m, params) => (owns(m.sql, kind, field(params)) ? { params } : denied(action, what, field(params)));

/** Restricts a list to the member's groups: the intersection with the caller's own filter. */
function scopeToGroups<A extends 'ListAssetGroups' | 'ListAssets'>(action: A): Rule<A>['before'] {
  return (m, params) => {
    const mine = ownedIds(m.sql, 'group');
    const asked = params.Filter.GroupIds;
    const ids = asked ? asked.filter((id) => mine.includes(id)) : mine;
    if (ids.length === 0) {
      const empty: Page<never> = { Items: [], TotalCount: 0, PageNumber: params.PageNumber, PageSize: params.PageSize };
      return { reply: librarySuccess(action, empty) };
    }
    return { params: { ...params, Filter: { ...params.Filter, GroupIds: ids } } };
  };
}

export const RULES: { [A in Action]: Rule<A> } = {
  CreateAssetGroup: { after: (m, _p, r) => own(m.sql, 'group', r.Id) },
  ListAssetGroups: { before: scopeToGroups('ListAssetGroups') },
  GetAssetGroup: { before: mustOwn('GetAssetGroup', 'group', 'Group', (p) => p.Id) },
  UpdateAssetGroup: { before: mustOwn('UpdateAssetGroup', 'group', 'Group', (p) => p.Id) },
  DeleteAssetGroup: {
    before: mustOwn('DeleteAssetGroup', 'group', 'Group', (p) => p.Id),
    after: (m, p) => disown(m.sql, 'group', p.Id),
  },
  CreateAsset: {
    before: mustOwn('CreateAsset', 'group', 'Group', (p) => p.GroupId),
    after: (m, p, r) => own(m.sql, 'asset', r.Id, p.GroupId),
  },
  GetAsset: { before: mustOwn('GetAsset', 'asset', 'Asset', (p) => p.Id) },
  UpdateAsset: { before: mustOwn('UpdateAsset', 'asset', 'Asset', (p) => p.Id) },
  DeleteAsset: {
    before: mustOwn('DeleteAsset', 'asset', 'Asset', (p) => p.Id),
    after: (m, p) => disown(m.sql, 'asset', p.Id),
  },
  ListAssets: {
    before: scopeToGroups('ListAssets'),
    // Assets listed from the member's groups are the member's (real-person captures arrive this way).
    after: (m, _p, r: Page<{ Id: string; GroupId: string }>) => r.Items.forEach((a) => own(m.sql, 'asset', a.Id, a.GroupId)),
  },
  CreatePortraitSession: { before: portrait.requireConsent, after: portrait.issueHandle },
  ResolvePartnerToken: { before: portrait.exchangeHandle, after: portrait.completeHandle },
};
