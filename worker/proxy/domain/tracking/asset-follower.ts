import { ASSET_OUTCOME_DAYS, type AssetListItem, type FollowedAsset, type Page } from '../../../../shared';
import type { ProxySettings } from '../../infra/settings/proxy-settings';
import { assetCheckMs, upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { libraryCall } from '../../infra/upstream/fetch';

/**
 * Follows every asset a member created through the proxy to `Active` or `Failed`, on the member
 * object's alarm, as the tracker follows tasks: `asset.*` events need no client, and the member's
 * browsers read how their assets ended from here (`POST /proxy/assets/statuses`) instead of each
 * polling the service. One ListAssets listing per member per ASSET_CHECK_SECONDS covers every
 * followed asset (their groups, newest first, at most MAX_PAGES pages of 100); an asset that ended is kept as an outcome for ASSET_OUTCOME_DAYS, told once as an event
 * when a webhook (the member's or the team's) takes `asset.*` events. A followed asset a complete
 * listing no longer shows (deleted by someone, or by a delete whose news was lost) is dropped.
 */

/**
 * `followed_assets`: assets not ended yet; `asset_outcomes`: how followed assets ended; `asset_watch`:
 * when the one listing is next due.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS followed_assets (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL,
  owner TEXT,                  -- the member whose library holds it (the group's owner)
  created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS asset_outcomes (
  id TEXT PRIMARY KEY,
  group_id TEXT NOT NULL,
  status TEXT NOT NULL,        -- Active | Failed
  error_code TEXT,
  error_message TEXT,
  ended_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS asset_outcomes_by_end ON asset_outcomes (ended_at);
CREATE INDEX IF NOT EXISTS asset_outcomes_by_group ON asset_outcomes (group_id);
CREATE TABLE IF NOT EXISTS asset_watch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  next_at INTEGER,             -- the next listing; null: nothing followed
  failures INTEGER NOT NULL DEFAULT 0);
`;

const OUTCOME_MS = ASSET_OUTCOME_DAYS * 24 * 3_600_000;

/** Pages of one listing, at most. */
const MAX_PAGES = 3;
const PAGE_SIZE = 100;
/** Groups of one listing, at most (the rest wait for the next). */
const MAX_GROUPS = 100;
/** An asset still not done after this long is no longer followed. */
export const ASSET_FOLLOW_MS = 24 * 3_600_000;
/** An asset missing from a listing is taken as deleted only this long after its create (a listing may lag a create). */
export const ASSET_GONE_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 10 * 60_000;

export const ASSET_EVENTS = ['asset.active', 'asset.failed'] as const;

export interface FollowerHost {
  sql: SqlStorage;
  env: ProxySettings;
  /** Whether anyone takes asset events: the member's webhook or the team's (asked once a listing that found an end). */
  wanted(): Promise<boolean>;
  /** An asset ended and someone takes asset events: synchronous, in the step that records the end. */
  ended(asset: AssetListItem, owner: string | null): void;
  armAlarm(): void;
}

interface Outcome {
  id: string;
  status: 'Active' | 'Failed';
  error_code: string | null;
  error_message: string | null;
  ended_at: number;
}

interface Followed {
  id: string;
  group_id: string;
  owner: string | null;
  created_at: number;
}

export class AssetFollower {
  #running = false;

  constructor(private readonly host: FollowerHost) {
    host.sql.exec(SCHEMA);
  }

  /** Starts following an asset the service just accepted. */
  follow(assetId: string, groupId: string, owner: string | null): void {
    const now = Date.now();
    this.host.sql.exec('INSERT OR IGNORE INTO followed_assets (id, group_id, owner, created_at) VALUES (?, ?, ?, ?)', assetId, groupId, owner, now);
    const due = now + assetCheckMs(this.host.env);
    this.host.sql.exec('INSERT INTO asset_watch (id, next_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET next_at = COALESCE(MIN(next_at, excluded.next_at), excluded.next_at)', due);
    this.host.armAlarm();
  }

  /**
   * What is known of these ids: followed (`Processing`) or ended (`Active`/`Failed`), in the order
   * asked, each once; an id not followed is left out.
   */
  statuses(ids: readonly string[]): FollowedAsset[] {
    const unique = [...new Set(ids)];
    // One bound parameter whatever the number of ids (a statement takes at most 100).
    const list = JSON.stringify(unique);
    const ended = new Map(
      (this.host.sql.exec('SELECT * FROM asset_outcomes WHERE id IN (SELECT value FROM json_each(?))', list).toArray() as unknown as Outcome[]).map((o) => [o.id, o]),
    );
    const following = new Set(this.host.sql.exec('SELECT id FROM followed_assets WHERE id IN (SELECT value FROM json_each(?))', list).toArray().map((r) => r.id as string));
    const known: FollowedAsset[] = [];
    for (const id of unique) {
      const o = ended.get(id);
      if (o) known.push({ id, status: o.status, error: o.status === 'Failed' ? { code: o.error_code ?? '', message: o.error_message ?? '' } : null, endedAt: new Date(o.ended_at).toISOString() });
      else if (following.has(id)) known.push({ id, status: 'Processing', error: null, endedAt: null });
    }
    return known;
  }

  /** An asset deleted through the proxy: no longer followed, and its outcome no longer told. */
  forget(assetId: string): void {
    this.host.sql.exec('DELETE FROM followed_assets WHERE id = ?', assetId);
    this.host.sql.exec('DELETE FROM asset_outcomes WHERE id = ?', assetId);
  }

  /** A group deleted through the proxy: its assets are no longer followed, nor their outcomes told. */
  forgetGroup(groupId: string): void {
    this.host.sql.exec('DELETE FROM followed_assets WHERE group_id = ?', groupId);
    this.host.sql.exec('DELETE FROM asset_outcomes WHERE group_id = ?', groupId);
  }

  /** When the next listing is due, or null. */
  nextAt(): number | null {
    return (this.host.sql.exec('SELECT next_at FROM asset_watch').toArray()[0]?.next_at as number | null | undefined) ?? null;
  }

  /** The alarm: one listing when due. */
  async runDue(): Promise<void> {
    const at = this.nextAt();
    if (this.#running || at === null || at > Date.now()) return;
    this.#running = true;
    try {
      await this.#check();
    } finally {
      this.#running = false;
      this.host.armAlarm();
    }
  }

  async #check(): Promise<void> {
    const now = Date.now();
    const interval = assetCheckMs(this.host.env);
    this.host.sql.exec('DELETE FROM followed_assets WHERE created_at < ?', now - ASSET_FOLLOW_MS);
    this.host.sql.exec('DELETE FROM asset_outcomes WHERE ended_at < ?', now - OUTCOME_MS);
    const followed = this.host.sql.exec('SELECT * FROM followed_assets').toArray() as unknown as Followed[];
    if (!followed.length) {
      this.host.sql.exec('UPDATE asset_watch SET next_at = NULL, failures = 0');
      return;
    }
    // Claimed before the query: one listing per interval, whoever runs the alarm.
    this.host.sql.exec('UPDATE asset_watch SET next_at = ?', now + interval);
    const byId = new Map(followed.map((f) => [f.id, f]));
    const groups = [...new Set(followed.map((f) => f.group_id))].slice(0, MAX_GROUPS);
    let found: AssetListItem[];
    try {
      const listed = await this.#list(groups, byId);
      found = listed.ended;
      for (const id of listed.gone) if (byId.get(id)!.created_at <= now - ASSET_GONE_AFTER_MS) this.host.sql.exec('DELETE FROM followed_assets WHERE id = ?', id);
    } catch {
      const failures = (this.host.sql.exec('SELECT failures FROM asset_watch').one().failures as number) + 1;
      this.host.sql.exec('UPDATE asset_watch SET failures = ?, next_at = ?', failures, now + Math.min(interval * 2 ** Math.min(failures, 10), MAX_BACKOFF_MS));
      return;
    }
    const tell = found.length > 0 && (await this.host.wanted().catch(() => true));
    const endedAt = Date.now();
    for (const asset of found) {
      const f = byId.get(asset.Id)!;
      // Stop following, keep the outcome and raise the event in one step: told once, even across a restart.
      if (this.host.sql.exec('DELETE FROM followed_assets WHERE id = ?', asset.Id).rowsWritten === 0) continue;
      const failed = asset.Status === 'Failed';
      this.host.sql.exec(
        'INSERT OR REPLACE INTO asset_outcomes (id, group_id, status, error_code, error_message, ended_at) VALUES (?, ?, ?, ?, ?, ?)',
        asset.Id, f.group_id, asset.Status, failed ? String(asset.Error?.Code ?? '') : null, failed ? String(asset.Error?.Message ?? '') : null, endedAt,
      );
      if (tell) this.host.ended(asset, f.owner);
    }
    const left = this.host.sql.exec('SELECT COUNT(*) AS n FROM followed_assets').one().n as number;
    this.host.sql.exec('UPDATE asset_watch SET failures = 0, next_at = ?', left ? now + interval : null);
  }

  /**
   * The followed assets that are `Active` or `Failed` now, and (when the listing was read to its end)
   * those of the listed groups it does not show: newest first, pages until all are seen or MAX_PAGES.
   * Rejects when the service fails.
   */
  async #list(groups: string[], followed: Map<string, Followed>): Promise<{ ended: AssetListItem[]; gone: string[] }> {
    const found: AssetListItem[] = [];
    const seen = new Set<string>();
    let complete = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      // Every status: a followed asset still `Processing` must be told from one that no longer exists.
      const params = { Filter: { GroupIds: groups }, PageNumber: page, PageSize: PAGE_SIZE, SortBy: 'CreateTime', SortOrder: 'Desc' };
      const up = await libraryCall(this.host.env, 'ListAssets', params, upstreamTimeoutMs(this.host.env));
      if (up.status !== 200) throw new Error(`ListAssets answered HTTP ${up.status}`);
      const envelope = JSON.parse(up.body) as { ResponseMetadata?: { Error?: unknown }; Result?: Page<AssetListItem> };
      if (envelope.ResponseMetadata?.Error || !envelope.Result || !Array.isArray(envelope.Result.Items)) throw new Error('ListAssets failed');
      const items = envelope.Result.Items;
      for (const a of items) if (followed.has(a.Id)) seen.add(a.Id);
      found.push(...items.filter((a) => followed.has(a.Id) && (a.Status === 'Active' || a.Status === 'Failed')));
      complete = items.length < PAGE_SIZE || page * PAGE_SIZE >= envelope.Result.TotalCount;
      if (complete || seen.size >= followed.size) break;
    }
    const listedGroups = new Set(groups);
    const gone = complete ? [...followed.values()].filter((f) => listedGroups.has(f.group_id) && !seen.has(f.id)).map((f) => f.id) : [];
    return { ended: found, gone };
  }
}
