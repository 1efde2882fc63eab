import { own } from '../members/owned';
import { adoptSources, dropOrphanSources, exportSources } from './asset-sources';
import type { AuditPort, HeldLibrary, LibraryHolderPort, TeamLibraryPort } from './sharing-ports';

/**
 * Moving every group of a member to another (`POST /admin/members/:id/transfer`), with its assets
 * and sharing. Each step can be run again: a transfer interrupted halfway is finished by repeating it.
 */

/** The groups a member's object owns, with their assets and which of them are shared. */
export function heldLibrary(sql: SqlStorage): HeldLibrary {
  const groups = sql.exec<{ id: string }>("SELECT id FROM owned WHERE kind = 'group'").toArray().map((r) => r.id);
  const assets = sql.exec<{ id: string; parent: string }>("SELECT id, parent FROM owned WHERE kind = 'asset' AND parent IS NOT NULL").toArray().map((r) => ({ id: r.id, group: r.parent }));
  const shared = sql.exec<{ group_id: string }>('SELECT group_id FROM shared_out').toArray().map((r) => r.group_id);
  return { groups, assets, shared, sources: exportSources(sql) };
}

export function adoptLibrary(sql: SqlStorage, held: HeldLibrary): void {
  for (const id of held.groups) own(sql, 'group', id);
  for (const a of held.assets) own(sql, 'asset', a.id, a.group);
  for (const id of held.shared) sql.exec('INSERT OR IGNORE INTO shared_out (group_id) VALUES (?)', id);
  if (held.sources) adoptSources(sql, held.sources);
}

export function releaseLibrary(sql: SqlStorage, groupIds: string[]): void {
  for (const id of groupIds) {
    sql.exec("DELETE FROM owned WHERE (kind = 'group' AND id = ?) OR (kind = 'asset' AND parent = ?)", id, id);
    sql.exec('DELETE FROM shared_out WHERE group_id = ?', id);
  }
  dropOrphanSources(sql);
}

export interface TransferPorts {
  from: LibraryHolderPort;
  to: LibraryHolderPort;
  team: TeamLibraryPort;
  audit: AuditPort;
}

/** Adopt first, then the team library's owner, then release: at no point is a group nobody's. */
export async function transferLibrary(ports: TransferPorts, fromId: string, to: { id: string; name: string }, actor: string): Promise<{ groups: number; assets: number }> {
  const held = await ports.from.libraryExport();
  await ports.to.libraryAdopt(held);
  const moved = await ports.team.transferOwner(fromId, to);
  // Assets editors added that the owner's object had not seen yet, and any group recorded only there.
  await ports.to.libraryAdopt({ groups: moved.groups, assets: moved.assets, shared: moved.groups });
  await ports.from.libraryRelease([...new Set([...held.groups, ...moved.groups])]);
  const groups = new Set([...held.groups, ...moved.groups]).size;
  const assets = new Set([...held.assets.map((a) => a.id), ...moved.assets.map((a) => a.id)]).size;
  await ports.audit.audit(actor, 'member.transfer', fromId, { to: to.id, groups, assets }).catch(() => undefined);
  return { groups, assets };
}
