import type { GroupType } from '@@/shared';

/** The `groups` store's record. Types only, importing nothing from the extension (no import cycles). */
export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  type: GroupType;
  /** Last time the member added to the group (drives "recent groups"); 0 if never. */
  usedAt: number;
  /**
   * The member's standing on the group: absent or `owner` for their own groups (every record from
   * before the team library), `editor` or `viewer` for a group another member shares with them
   * (`GET /proxy/shared`). Plain fields, no index: no schema change.
   */
  role?: 'owner' | 'editor' | 'viewer';
  /** Who owns a shared group (absent on the member's own). */
  owner?: { id: string; name: string };
}
