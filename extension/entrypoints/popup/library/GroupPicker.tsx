import { useState } from 'preact/hooks';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import { t } from '@/lib/i18n/translate';

/** Asks which group dropped or picked files go to, when nothing says (no group open, none used yet). */
export function GroupPicker({ count, groups, onPick, onCancel }: { count: number; groups: readonly GroupRecord[]; onPick: (groupId: string) => void; onCancel: () => void }) {
  const [chosen, setChosen] = useState(groups[0]?.id ?? '');
  if (!groups.length) {
    return (
      <div class="group-form" role="alert">
        <p>{t('files.noGroup')}</p>
        <button type="button" onClick={onCancel}>
          {t('common.close')}
        </button>
      </div>
    );
  }
  return (
    <form
      class="group-form"
      onSubmit={(event) => {
        event.preventDefault();
        onPick(chosen);
      }}
    >
      <div class="field">
        <label for="files-group">{t('files.pick', { count })}</label>
        <select id="files-group" value={chosen} onChange={(event) => setChosen(event.currentTarget.value)}>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          {t('files.pickAdd')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
