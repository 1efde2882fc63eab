import { runInDurableObject } from 'cloudflare:test';
import { afterEach, expect } from 'vitest';
import { libraryObject } from '../objects/handles';
import { adminHeaders, call, proxyEnv, proxyFetch, type Member } from './proxy-test-client';

/**
 * Steps of the team library's tests (docs/team-library.md): sharing a group, revoking a member.
 * Team-wide shares are taken back after each test, so that no other test's member finds a group
 * of this one in its lists (the objects' storage lives on across tests and files).
 */

const teamShared: { owner: Member; groupId: string }[] = [];

/** `PUT /proxy/groups/:id/sharing` as `owner`; answers status and body. */
export async function share(owner: Member, groupId: string, body: unknown) {
  const r = await call(owner, 'PUT', `/proxy/groups/${encodeURIComponent(groupId)}/sharing`, body);
  const team = (body as { team?: string } | null)?.team;
  if (r.status === 200 && team && team !== 'none') teamShared.push({ owner, groupId });
  return r;
}

/** Shares and expects it to work. */
export async function shared(owner: Member, groupId: string, body: unknown) {
  const r = await share(owner, groupId, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

export async function revoke(m: Member): Promise<void> {
  const r = await proxyFetch(`/admin/members/${m.id}`, { method: 'DELETE', headers: adminHeaders() });
  expect(r.status).toBe(204);
}

afterEach(async () => {
  const ids = teamShared.splice(0).map((s) => s.groupId);
  if (!ids.length) return;
  // Straight in the team library's storage: the owner may be revoked, or the group moved, by then.
  await libraryRows(`UPDATE shared_groups SET team_role = 'none' WHERE id IN (${ids.map(() => '?').join(',')})`, ...ids);
});

/** SQL rows of the team library's object. */
export function libraryRows<T = Record<string, unknown>>(query: string, ...bindings: unknown[]): Promise<T[]> {
  return runInDurableObject(libraryObject(proxyEnv), (_instance, state) => state.storage.sql.exec(query, ...bindings).toArray() as T[]);
}
