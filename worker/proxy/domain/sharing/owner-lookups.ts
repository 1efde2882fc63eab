import { LIMITS, type Action } from '../../../../shared';
import { proxyError, type ProxyResponse } from '../../infra/http/responses';
import { upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { isTimeout, libraryCall } from '../../infra/upstream/fetch';
import type { MemberContext } from '../members/member-context';

/**
 * What an owner's object asks the service about its own group when it shares it (never on a
 * grantee's path): the group's name and type, and, the first time, its assets, so that grantees'
 * checks of assets made before sharing need no call to the service.
 */

/** Pages of a group's assets read at most when it is first shared. */
const MAX_PAGES = 50;

type Looked<T> = { ok: true; value: T } | { ok: false; response: ProxyResponse };

async function ask<T>(m: MemberContext, action: Action, body: unknown): Promise<Looked<T>> {
  try {
    const up = await libraryCall(m.env, action, body, upstreamTimeoutMs(m.env));
    const envelope = JSON.parse(up.body) as { Result?: T; ResponseMetadata?: { Error?: { Code: string } } };
    if (up.status === 200 && envelope.Result && !envelope.ResponseMetadata?.Error) return { ok: true, value: envelope.Result };
    const code = envelope.ResponseMetadata?.Error?.Code ?? `HTTP ${up.status}`;
    return { ok: false, response: proxyError(502, 'internal_error', `The asset library service answered ${action} with ${code}. Try again later.`) };
  } catch (error) {
    return isTimeout(error)
      ? { ok: false, response: proxyError(504, 'upstream_timeout', `The asset library service did not answer within ${upstreamTimeoutMs(m.env) / 1000} s. Try again shortly.`) }
      : { ok: false, response: proxyError(502, 'internal_error', 'The asset library service could not be reached. Try again later.') };
  }
}

export const groupFromService = async (m: MemberContext, groupId: string): Promise<Looked<{ name: string; groupType: string }>> => {
  const found = await ask<{ Name: string; GroupType: string }>(m, 'GetAssetGroup', { Id: groupId });
  return found.ok ? { ok: true, value: { name: found.value.Name, groupType: found.value.GroupType } } : found;
};

/** Every asset of the group: those the owner's object recorded, and those the service lists. */
export async function groupAssets(m: MemberContext, groupId: string): Promise<Looked<string[]>> {
  const ids = new Set(m.sql.exec<{ id: string }>("SELECT id FROM owned WHERE kind = 'asset' AND parent = ?", groupId).toArray().map((r) => r.id));
  const size = LIMITS.pageSizeMax;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const listed = await ask<{ Items: { Id: string }[]; TotalCount: number }>(m, 'ListAssets', { Filter: { GroupIds: [groupId] }, PageNumber: page, PageSize: size });
    if (!listed.ok) return listed;
    for (const item of listed.value.Items) ids.add(item.Id);
    if (listed.value.Items.length < size || page * size >= listed.value.TotalCount) break;
  }
  return { ok: true, value: [...ids] };
}

/** Names of the member's groups, from one list call per hundred (the console's member page). */
export async function groupNames(m: MemberContext, groupIds: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const size = LIMITS.pageSizeMax;
  for (let i = 0; i < groupIds.length; i += size) {
    const listed = await ask<{ Items: { Id: string; Name: string }[] }>(m, 'ListAssetGroups', { Filter: { GroupIds: groupIds.slice(i, i + size) }, PageSize: size });
    if (listed.ok) for (const g of listed.value.Items) names.set(g.Id, g.Name);
  }
  return names;
}
