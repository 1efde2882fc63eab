import type { GroupRecord } from '@/lib/storage/records/group-record';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/sidepanel.en';

/** "Save N to <group>" with the group picker; disabled while nothing is selected or a save runs. */
export function SaveBar({ groups, groupId, count, busy, onGroup, onSave }: { groups: GroupRecord[]; groupId: string; count: number; busy: boolean; onGroup: (id: string) => void; onSave: () => void }) {
  if (!groups.length) return <p class="pm-hint">{t('sidepanel.save.noGroups')}</p>;
  const group = groups.find((g) => g.id === groupId) ?? groups[0]!;
  return (
    <div class="pm-save">
      <label for="pm-group">{t('sidepanel.save.group')}</label>
      <select id="pm-group" value={group.id} onChange={(e) => onGroup((e.target as HTMLSelectElement).value)}>
        {groups.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </select>
      <button type="button" class="primary" disabled={!count || busy} onClick={onSave}>
        {t('sidepanel.save.button', { count, group: group.name })}
      </button>
    </div>
  );
}
