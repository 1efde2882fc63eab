import { clip, type AssetSource, type SourceHow } from '../../../../shared';
import { jsonResponse, proxyError, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { assetStandings, mayRead } from './shared-access';
import type { SourceHolderPort, SourceRow } from './sharing-ports';

/**
 * Where an asset came from (docs/proxy-api.md#asset-sources): kept in its owner's object beside its
 * ownership record, set by its owner only, read by whoever may see the asset (its owner, and the
 * members a group holding it is shared with), through the sharing rules of shared-access.ts.
 */

export const SOURCE_SCHEMA = `
CREATE TABLE IF NOT EXISTS asset_sources (
  asset_id TEXT PRIMARY KEY,
  page_url TEXT, page_title TEXT,
  captured_at TEXT NOT NULL,   -- ISO 8601 UTC
  how TEXT NOT NULL,           -- link | upload | screenshot | frame | file
  updated_at INTEGER NOT NULL);
`;

/** A source after the shared schema checked and cleaned it. */
export type CheckedSource = { pageUrl: string | null; pageTitle: string | null; capturedAt: string; how: SourceHow };

export type SourceCall = { kind: 'put'; assetId: string; source: CheckedSource } | { kind: 'lookup'; ids: string[] };

/** How the member's object reaches another member's (the owner of a shared asset). */
export interface SourceDeps {
  holder(ownerId: string): SourceHolderPort;
}

const view = (row: SourceRow, owner: string): AssetSource => ({
  pageUrl: row.page_url,
  pageTitle: row.page_title,
  capturedAt: row.captured_at,
  how: row.how as SourceHow,
  owner,
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** Sources of the member's own assets among `ids` (an asset no longer owned has none). */
export function readSources(sql: SqlStorage, owner: string, ids: readonly string[]): Record<string, AssetSource> {
  const found: Record<string, AssetSource> = {};
  for (const id of ids) {
    const row = sql.exec<SourceRow>("SELECT s.* FROM asset_sources s JOIN owned o ON o.kind = 'asset' AND o.id = s.asset_id WHERE s.asset_id = ?", id).toArray()[0];
    if (row) found[id] = view(row, owner);
  }
  return found;
}

export function writeSource(sql: SqlStorage, assetId: string, source: CheckedSource, now: number): SourceRow {
  const row: SourceRow = { asset_id: assetId, page_url: source.pageUrl, page_title: source.pageTitle, captured_at: source.capturedAt, how: source.how, updated_at: now };
  sql.exec('INSERT OR REPLACE INTO asset_sources VALUES (?, ?, ?, ?, ?, ?)', row.asset_id, row.page_url, row.page_title, row.captured_at, row.how, row.updated_at);
  return row;
}

/** A deleted asset's source goes with it. */
export const dropSource = (sql: SqlStorage, assetId: string): void => void sql.exec('DELETE FROM asset_sources WHERE asset_id = ?', assetId);

/** The sources of the member's own assets, for a transfer. */
export const exportSources = (sql: SqlStorage): SourceRow[] =>
  sql.exec<SourceRow>("SELECT s.* FROM asset_sources s JOIN owned o ON o.kind = 'asset' AND o.id = s.asset_id").toArray();

/** Sources moved in by a transfer; a source the heir has already set for the asset is kept. */
export function adoptSources(sql: SqlStorage, rows: readonly SourceRow[]): void {
  for (const r of rows) sql.exec('INSERT OR IGNORE INTO asset_sources VALUES (?, ?, ?, ?, ?, ?)', r.asset_id, r.page_url, r.page_title, r.captured_at, r.how, r.updated_at);
}

/** After a transfer released groups: sources of assets no longer owned are dropped. */
export const dropOrphanSources = (sql: SqlStorage): void =>
  void sql.exec("DELETE FROM asset_sources WHERE asset_id NOT IN (SELECT id FROM owned WHERE kind = 'asset')");

export async function handleSources(m: MemberContext, deps: SourceDeps, call: SourceCall): Promise<ProxyResponse> {
  if (call.kind === 'put') return putSource(m, call.assetId, call.source);
  return jsonResponse(200, { sources: await lookup(m, deps, call.ids) });
}

async function putSource(m: MemberContext, assetId: string, source: CheckedSource): Promise<ProxyResponse> {
  const standing = (await assetStandings(m, [assetId])).get(assetId);
  if (standing?.access === 'owner') {
    const row = writeSource(m.sql, assetId, source, Date.now());
    return jsonResponse(200, { assetId, source: view(row, m.memberId) });
  }
  if (mayRead(standing)) return proxyError(403, 'not_owner', `Only the owner of asset ${clip(assetId)} may set its source.`, 'assetId');
  return proxyError(404, 'asset_not_found', `No asset ${clip(assetId)} exists for you.`, 'assetId');
}

/**
 * The sources the member may read among `ids`: its own from its object; others' from their
 * owners' objects, one call per owner for all of that owner's ids. Ids the member may not read,
 * and ids with no source, are left out alike.
 */
async function lookup(m: MemberContext, deps: SourceDeps, ids: readonly string[]): Promise<Record<string, AssetSource>> {
  const standings = await assetStandings(m, ids);
  const byOwner = new Map<string, string[]>();
  for (const [id, standing] of standings) {
    if (!mayRead(standing) || !standing.owner) continue;
    byOwner.set(standing.owner, [...(byOwner.get(standing.owner) ?? []), id]);
  }
  const found: Record<string, AssetSource> = {};
  await Promise.all(
    [...byOwner].map(async ([owner, owned]) => {
      const sources = owner === m.memberId ? readSources(m.sql, owner, owned) : await deps.holder(owner).sourcesOf(owned);
      for (const id of owned) if (sources[id]) found[id] = sources[id];
    }),
  );
  return found;
}
