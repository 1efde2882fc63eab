import type { AssetListItem, Page } from '../../../../shared';
import type { ProxySettings } from '../../infra/settings/proxy-settings';
import { trackIntervalMs, upstreamTimeoutMs } from '../../infra/settings/proxy-settings';
import { libraryCall } from '../../infra/upstream/fetch';
import { FOLLOWED_ASSETS_SCHEMA } from './webhook-schema';

/**
 * Follows the assets a member created through the proxy to `Active` or `Failed`, on the member
 * object's alarm, as the tracker follows tasks, so that `asset.*` events need no client. One
 * ListAssets listing per member per TRACK_INTERVAL_SECONDS covers every followed asset (their
 * groups, `Active` and `Failed` only, newest first, at most MAX_PAGES pages of 100); each asset is
 * told once, then no longer followed. An asset is followed while someone would be told: with no
 * webhook taking `asset.*` events (the member's or the team's), it is dropped without a query.
 */

/** Pages of one listing, at most. */
const MAX_PAGES = 3;
const PAGE_SIZE = 100;
/** Groups of one listing, at most (the rest wait for the next). */
const MAX_GROUPS = 100;
/** An asset still not done after this long is no longer followed. */
export const ASSET_FOLLOW_MS = 24 * 3_600_000;
const MAX_BACKOFF_MS = 10 * 60_000;

export const ASSET_EVENTS = ['asset.active', 'asset.failed'] as const;

export interface FollowerHost {
  sql: SqlStorage;
  env: ProxySettings;
  /** Whether anyone takes asset events: the member's webhook or the team's. */
  wanted(): Promise<boolean>;
  /** An asset ended: the service's list item; synchronous, in the step that stops following it. */
  ended(asset: AssetListItem, owner: string | null): void;
  armAlarm(): void;
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
    host.sql.exec(FOLLOWED_ASSETS_SCHEMA);
  }

  /** Starts following an asset the service just accepted. */
  follow(assetId: string, groupId: string, owner: string | null): void {
    const now = Date.now();
    this.host.sql.exec('INSERT OR IGNORE INTO followed_assets (id, group_id, owner, created_at) VALUES (?, ?, ?, ?)', assetId, groupId, owner, now);
    const due = now + trackIntervalMs(this.host.env);
    this.host.sql.exec('INSERT INTO asset_watch (id, next_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET next_at = COALESCE(MIN(next_at, excluded.next_at), excluded.next_at)', due);
    this.host.armAlarm();
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
    const interval = trackIntervalMs(this.host.env);
    this.host.sql.exec('DELETE FROM followed_assets WHERE created_at < ?', now - ASSET_FOLLOW_MS);
    const followed = this.host.sql.exec('SELECT * FROM followed_assets').toArray() as unknown as Followed[];
    if (!followed.length || !(await this.host.wanted().catch(() => true))) {
      this.host.sql.exec('DELETE FROM followed_assets');
      this.host.sql.exec('UPDATE asset_watch SET next_at = NULL, failures = 0');
      return;
    }
    // Claimed before the query: one listing per interval, whoever runs the alarm.
    this.host.sql.exec('UPDATE asset_watch SET next_at = ?', now + interval);
    const byId = new Map(followed.map((f) => [f.id, f]));
    const groups = [...new Set(followed.map((f) => f.group_id))].slice(0, MAX_GROUPS);
    let found: AssetListItem[];
    try {
      found = await this.#list(groups, byId);
    } catch {
      const failures = (this.host.sql.exec('SELECT failures FROM asset_watch').one().failures as number) + 1;
      this.host.sql.exec('UPDATE asset_watch SET failures = ?, next_at = ?', failures, now + Math.min(interval * 2 ** Math.min(failures, 10), MAX_BACKOFF_MS));
      return;
    }
    for (const asset of found) {
      const f = byId.get(asset.Id)!;
      // Stop following and raise the event in one step: told once, even across a restart.
      if (this.host.sql.exec('DELETE FROM followed_assets WHERE id = ?', asset.Id).rowsWritten > 0) this.host.ended(asset, f.owner);
    }
    const left = this.host.sql.exec('SELECT COUNT(*) AS n FROM followed_assets').one().n as number;
    this.host.sql.exec('UPDATE asset_watch SET failures = 0, next_at = ?', left ? now + interval : null);
  }

  /** The followed assets that are `Active` or `Failed` now: newest first, pages until all are seen or MAX_PAGES. Rejects when the service fails. */
  async #list(groups: string[], followed: Map<string, Followed>): Promise<AssetListItem[]> {
    const found: AssetListItem[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const params = { Filter: { GroupIds: groups, Statuses: ['Active', 'Failed'] }, PageNumber: page, PageSize: PAGE_SIZE, SortBy: 'CreateTime', SortOrder: 'Desc' };
      const up = await libraryCall(this.host.env, 'ListAssets', params, upstreamTimeoutMs(this.host.env));
      if (up.status !== 200) throw new Error(`ListAssets answered HTTP ${up.status}`);
      const envelope = JSON.parse(up.body) as { ResponseMetadata?: { Error?: unknown }; Result?: Page<AssetListItem> };
      if (envelope.ResponseMetadata?.Error || !envelope.Result || !Array.isArray(envelope.Result.Items)) throw new Error('ListAssets failed');
      const items = envelope.Result.Items;
      found.push(...items.filter((a) => followed.has(a.Id) && (a.Status === 'Active' || a.Status === 'Failed')));
      if (found.length >= followed.size || items.length < PAGE_SIZE || page * PAGE_SIZE >= envelope.Result.TotalCount) break;
    }
    return found;
  }
}
