import type { GroupType } from '@@/shared';

/** The `groups` store's record. Types only, importing nothing from the extension (no import cycles). */
export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  type: GroupType;
  /** Last time the member added to the group (drives "recent groups"); 0 if never. */
  usedAt: number;
}
