import { DROP_GROUP } from '@/entrypoints/popup/library/FileDrop';
import { LIST_HEIGHT } from '@/entrypoints/popup/library/LibraryAssets';
import { RoleBadge, TypeBadge } from '@/entrypoints/popup/library/StatusChips';
import { VirtualList } from '@/entrypoints/popup/library/VirtualList';
import { t } from '@/lib/i18n/translate';
import { canAddTo, isShared } from '@/lib/library/group-access';
import type { GroupRecord } from '@/lib/storage/records/group-record';

export const GROUP_ROW_HEIGHT = 48;

interface GroupListProps {
  groups: GroupRecord[];
  /** Assets per group id. */
  counts: Map<string, number>;
  onOpen: (group: GroupRecord) => void;
}

/**
 * The Library's groups, the member's own and those others share (with the member's role and the
 * owner's name); each a drop target for files, except those that take none (real-person groups,
 * groups shared to view).
 */
export function GroupList({ groups, counts, onOpen }: GroupListProps) {
  return (
    <VirtualList
      id="library-groups"
      label={t('library.groups')}
      items={groups}
      getKey={(g) => g.id}
      rowHeight={GROUP_ROW_HEIGHT}
      height={Math.min(LIST_HEIGHT, Math.max(groups.length, 1) * GROUP_ROW_HEIGHT)}
      renderRow={(g) => <GroupRow group={g} count={counts.get(g.id) ?? 0} />}
      itemProps={(g): Record<string, string> => (canAddTo(g) ? { [DROP_GROUP]: g.id } : {})}
      onOpen={onOpen}
      empty={<p class="muted">{t('library.noGroups')}</p>}
    />
  );
}

function GroupRow({ group, count }: { group: GroupRecord; count: number }) {
  return (
    <div class="row">
      <span class="row__main">
        <span class="row__name" title={group.name}>
          {group.name}
        </span>
        <TypeBadge type={group.type} />
        <RoleBadge group={group} />
        {isShared(group) && group.owner && <span class="row__owner">{t('library.sharedBy', { name: group.owner.name })}</span>}
      </span>
      <span class="row__count">{t('library.assetCount', { count })}</span>
    </div>
  );
}
