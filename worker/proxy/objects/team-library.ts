import { DurableObject } from 'cloudflare:workers';
import type { GalleryItem, GroupAccess, GroupSharing, SharedGroup } from '../../../shared';
import type { ProxySettings } from '../infra/settings/proxy-settings';
import * as gallery from '../domain/sharing/gallery-book';
import { TEAM_LIBRARY_SCHEMA } from '../domain/sharing/library-schema';
import * as book from '../domain/sharing/sharing-book';
import type { AssetAccess, GalleryEntry, SharingWrite, Unpublished } from '../domain/sharing/sharing-ports';

/**
 * The team library (docs/team-library.md), one object per deployment: which groups are shared,
 * with whom and how, which assets belong to them, and the team gallery. A member's own object
 * stays the owner of record of its groups; it consults this object only for an id that is not its
 * own, with one call answered by one query, so a change of sharing takes effect at once.
 */
export class TeamLibrary extends DurableObject<ProxySettings> {
  readonly #sql: SqlStorage;

  constructor(state: DurableObjectState, env: ProxySettings) {
    super(state, env);
    this.#sql = this.ctx.storage.sql;
    this.#sql.exec(TEAM_LIBRARY_SCHEMA);
  }

  // --- checks on a grantee's path (one query each) ---

  groupAccess(member: string, groupId: string): GroupAccess {
    return book.groupAccess(this.#sql, member, groupId);
  }

  assetAccess(member: string, assetIds: string[]): AssetAccess[] {
    return book.assetAccess(this.#sql, member, assetIds);
  }

  visibleGroups(member: string): string[] {
    return book.visibleGroups(this.#sql, member);
  }

  sharedWith(member: string): SharedGroup[] {
    return book.sharedWith(this.#sql, member);
  }

  // --- sharing (written by the owner's object) ---

  viewSharing(groupId: string, member: string): GroupSharing | null {
    return book.viewSharing(this.#sql, groupId, member);
  }

  groupRecord(groupId: string): { name: string; groupType: string; owner: string } | null {
    const row = book.groupRecord(this.#sql, groupId);
    return row ? { name: row.name, groupType: row.group_type, owner: row.owner } : null;
  }

  sharingOf(groupIds: string[]): GroupSharing[] {
    return groupIds.flatMap((id) => {
      const row = book.groupRecord(this.#sql, id);
      return row ? [book.sharingView(this.#sql, row)] : [];
    });
  }

  setSharing(write: SharingWrite): GroupSharing {
    return book.setSharing(this.#sql, write, Date.now());
  }

  recordAsset(assetId: string, groupId: string): void {
    book.recordAsset(this.#sql, assetId, groupId);
  }

  forgetAsset(assetId: string): void {
    this.#sql.exec('DELETE FROM shared_assets WHERE id = ?', assetId);
  }

  forgetGroup(groupId: string): void {
    book.forgetGroup(this.#sql, groupId);
  }

  renameGroup(groupId: string, name: string): void {
    this.#sql.exec('UPDATE shared_groups SET name = ? WHERE id = ?', name, groupId);
  }

  transferOwner(from: string, to: { id: string; name: string }): { groups: string[]; assets: { id: string; group: string }[] } {
    return book.transferOwner(this.#sql, from, to);
  }

  // --- the gallery ---

  publish(entry: GalleryEntry, origin: string): { item: GalleryItem; created: boolean } {
    return gallery.publish(this.#sql, this.env, entry, origin, Date.now());
  }

  gallery(limit: number, before: string | null, origin: string): { items: GalleryItem[]; next: string | null } {
    return gallery.page(this.#sql, this.env, limit, before, origin);
  }

  unpublish(taskId: string, by: string | null): Unpublished {
    return gallery.unpublish(this.#sql, taskId, by);
  }

  forgetKept(taskId: string): void {
    gallery.forgetKept(this.#sql, taskId);
  }
}
