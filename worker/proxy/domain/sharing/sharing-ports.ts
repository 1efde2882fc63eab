import type { AssetSource, GalleryItem, GroupAccess, GroupSharing, MemberProfile, ShareRole, SharedGroup } from '../../../../shared';

/**
 * What the rules outside the team library ask of it (objects/team-library.ts answers these calls),
 * and what the sharing rules ask of the directory and the audit log: declared here so that the
 * domain never depends on an object's class (objects/handles.ts checks that the classes fit).
 */

/** A grantee's standing on one asset: through the group it belongs to. */
export interface AssetAccess {
  id: string;
  group: string | null;
  access: GroupAccess;
  /** The owner of the group it belongs to (when it belongs to a shared group). */
  owner?: string;
}

/** A sharing change as the owner's object sends it, with what it learnt of the group. */
export interface SharingWrite {
  groupId: string;
  owner: { id: string; name: string };
  name: string;
  groupType: string;
  team?: ShareRole;
  members?: Record<string, ShareRole>;
  /** The group's assets, learnt when the group is first shared. */
  assets?: string[];
}

/** A gallery entry as the publisher's object sends it. */
export interface GalleryEntry {
  taskId: string;
  member: { id: string; name: string };
  model: string;
  request: Record<string, unknown> | null;
  cost: number;
  currency: string;
  keptUntil: number | null;
}

export type Unpublished = 'deleted' | 'not_found' | 'forbidden';

/** The team library: the one table of shared groups, roles and their assets, and the gallery. */
export interface TeamLibraryPort {
  /** The member's standing on a group (one query). */
  groupAccess(member: string, groupId: string): Promise<GroupAccess>;
  /** The member's standing on each asset, through its group (one query for all). */
  assetAccess(member: string, assetIds: string[]): Promise<AssetAccess[]>;
  /** The groups others share with the member, as ids (one query). */
  visibleGroups(member: string): Promise<string[]>;
  /** The same with names, owners, roles (one query). */
  sharedWith(member: string): Promise<SharedGroup[]>;
  /** The sharing of a group as the member may see it: null when the member has no role on it (or it was never shared). */
  viewSharing(groupId: string, member: string): Promise<GroupSharing | null>;
  /** What is recorded of a group (null: never shared). */
  groupRecord(groupId: string): Promise<{ name: string; groupType: string; owner: string } | null>;
  setSharing(write: SharingWrite): Promise<GroupSharing>;
  /** The sharing of each of these groups that has a record. */
  sharingOf(groupIds: string[]): Promise<GroupSharing[]>;
  recordAsset(assetId: string, groupId: string): Promise<unknown>;
  forgetAsset(assetId: string): Promise<unknown>;
  forgetGroup(groupId: string): Promise<unknown>;
  renameGroup(groupId: string, name: string): Promise<unknown>;
  /** Every recorded group of `from` now belongs to `to`: the groups and the assets recorded here. */
  transferOwner(from: string, to: { id: string; name: string }): Promise<{ groups: string[]; assets: { id: string; group: string }[] }>;
  publish(entry: GalleryEntry, origin: string): Promise<{ item: GalleryItem; created: boolean }>;
  gallery(limit: number, before: string | null, origin: string): Promise<{ items: GalleryItem[]; next: string | null }>;
  /** `by`: the member removing it (only the publisher may), or null for the admin. */
  unpublish(taskId: string, by: string | null): Promise<Unpublished>;
  /** The publisher deleted the kept copy of a task. */
  forgetKept(taskId: string): Promise<unknown>;
}

/** The team's members, as the directory keeps them (whom a group may be shared with). */
export interface RosterPort {
  list(): Promise<MemberProfile[]>;
}

/** The ledger's audit log (objects/team-ledger.ts `audit`). */
export interface AuditPort {
  audit(actor: string, action: string, target: string | null, detail: Record<string, unknown>): Promise<unknown>;
}

/** A member's own object, as a transfer moves groups out of it and into another. */
export interface LibraryHolderPort {
  libraryExport(): Promise<HeldLibrary>;
  libraryAdopt(held: HeldLibrary): Promise<unknown>;
  libraryRelease(groupIds: string[]): Promise<unknown>;
}

/** The groups a member's object owns, with their assets and which are shared. */
export interface HeldLibrary {
  groups: string[];
  assets: { id: string; group: string }[];
  shared: string[];
  /** The sources of those assets (domain/sharing/asset-sources.ts): they move with them. */
  sources?: SourceRow[];
}

/** An asset's source as its owner's object keeps it. */
export type SourceRow = {
  asset_id: string;
  page_url: string | null;
  page_title: string | null;
  captured_at: string;
  how: string;
  updated_at: number;
};

/** The owner's object, as another member's object reads sources it may show (after the access check). */
export interface SourceHolderPort {
  sourcesOf(assetIds: string[]): Promise<Record<string, AssetSource>>;
}

/** The owner's object, as another member's tells it an asset of its library was deleted through the proxy. */
export interface AssetHolderPort {
  assetRemoved(assetId: string): Promise<unknown>;
}
