import type { Action, LibraryRequest, Page } from '../../../../shared';
import { libraryFailure, librarySuccess, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { own, owns, type OwnedKind } from '../members/owned';
import { assetDeleted } from '../sharing/asset-removals';
import { assetCreated, assetsListed, groupDeleted, groupRenamed, listScope, reachAsset, reachGroup, type Need } from '../sharing/shared-access';
import * as portrait from './portrait-custody';

/**
 * What the proxy adds to each operation: `before` checks access and scopes the request (or
 * answers it without an upstream call); `after` records what the member obtained. Own ids are
 * answered from the member's object; another member's id only through a role on its group
 * (domain/sharing/shared-access.ts: one call to the team library, never one to the service).
 */
export type Before = { params: unknown; secrets?: string[] } | { reply: ProxyResponse };

export interface Rule<A extends Action = Action> {
  before?(m: MemberContext, params: LibraryRequest<A>): Before | Promise<Before>;
  after?(m: MemberContext, params: LibraryRequest<A>, result: any): unknown;
}

const denied = (action: Action, what: string, id: string) =>
  ({ reply: libraryFailure(403, action, 'AccessDenied', `${what} ${id} does not exist or you have no access to it.`) }) as const;

/** The operation's id must be one the member obtained: owners only, whatever is shared. */
const mustOwn = <A extends Action>(action: A, kind: OwnedKind, what: string, field: (p: LibraryRequest<A>) => string): Rule<A>['before'] =>
  (m, params) => (owns(m.sql, kind, field(params)) ? { params } : denied(action, what, field(params)));

/** The operation's group must be the member's, or shared with it with at least `need`. */
const mayGroup = <A extends Action>(action: A, need: Need, field: (p: LibraryRequest<A>) => string): Rule<A>['before'] =>
  async (m, params) => ((await reachGroup(m, field(params), need)) ? { params } : denied(action, 'Group', field(params)));

/** The operation's asset must be the member's, or in a group shared with it with at least `need`. */
const mayAsset = <A extends Action>(action: A, need: Need, field: (p: LibraryRequest<A>) => string): Rule<A>['before'] =>
  async (m, params) => ((await reachAsset(m, field(params), need)) ? { params } : denied(action, 'Asset', field(params)));

/** Restricts a list to the member's groups and those shared with it: the intersection with the caller's own filter. */
function scopeToGroups<A extends 'ListAssetGroups' | 'ListAssets'>(action: A): Rule<A>['before'] {
  return async (m, params) => {
    const ids = await listScope(m, params.Filter.GroupIds);
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
  GetAssetGroup: { before: mayGroup('GetAssetGroup', 'viewer', (p) => p.Id) },
  UpdateAssetGroup: {
    before: mayGroup('UpdateAssetGroup', 'editor', (p) => p.Id),
    after: (m, p) => groupRenamed(m, p.Id, p.Name),
  },
  DeleteAssetGroup: {
    before: mustOwn('DeleteAssetGroup', 'group', 'Group', (p) => p.Id),
    after: (m, p) => {
      m.assets.forgetGroup(p.Id);
      return groupDeleted(m, p.Id);
    },
  },
  CreateAsset: {
    before: mayGroup('CreateAsset', 'editor', (p) => p.GroupId),
    after: async (m, p, r) => {
      // Followed to Active or Failed on the member's alarm; the owner is the group's (an editor adds to another's library).
      const owner = owns(m.sql, 'group', p.GroupId) ? m.memberId : ((await m.team().groupRecord(p.GroupId).catch(() => null))?.owner ?? null);
      m.assets.follow(r.Id, p.GroupId, owner);
      await assetCreated(m, p.GroupId, r.Id);
    },
  },
  GetAsset: { before: mayAsset('GetAsset', 'viewer', (p) => p.Id) },
  UpdateAsset: { before: mayAsset('UpdateAsset', 'editor', (p) => p.Id) },
  DeleteAsset: {
    before: mayAsset('DeleteAsset', 'editor', (p) => p.Id),
    // Gone for everyone: the owner's object too when an editor deletes it (domain/sharing/asset-removals.ts).
    after: (m, p) => assetDeleted(m, p.Id),
  },
  ListAssets: {
    before: scopeToGroups('ListAssets'),
    // Assets listed from the member's own groups are the member's (real-person captures arrive this way).
    after: (m, _p, r: Page<{ Id: string; GroupId: string }>) => assetsListed(m, r.Items),
  },
  CreatePortraitSession: { before: portrait.requireConsent, after: portrait.issueHandle },
  ResolvePartnerToken: { before: portrait.exchangeHandle, after: portrait.completeHandle },
};
