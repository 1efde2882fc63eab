import { Banner, type BannerTone } from '@/components/Banner';
import { Field } from '@/components/Field';
import { t } from '@/lib/i18n/translate';
import { canAddTo } from '@/lib/library/group-access';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/lib/i18n/options.en';

interface GroupsPanelProps {
  groups: GroupRecord[];
  defaultGroupId: string | null;
  busy: boolean;
  canRefresh: boolean;
  note: { tone: BannerTone; text: string } | null;
  onDefaultChange: (id: string | null) => void;
  onRefresh: () => void;
}

/** The default group of the context menu, chosen among the member's groups, and "Refresh groups". */
export function GroupsPanel({ groups, defaultGroupId, busy, canRefresh, note, onDefaultChange, onRefresh }: GroupsPanelProps) {
  // Only virtual groups take web captures (real-person groups come from the portrait flow), and only
  // those the member may add to (their own, or shared with them as an editor).
  const choices = groups.filter(canAddTo);
  const selected = choices.some((g) => g.id === defaultGroupId) ? defaultGroupId! : '';
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">{t('options.groups.heading')}</h2>
      <Field id="default-group" label={t('options.groups.default')} hint={t('options.groups.defaultHint')}>
        {(control) => (
          <select {...control} value={selected} onChange={(event) => onDefaultChange(event.currentTarget.value || null)}>
            <option value="">{t('options.groups.automatic')}</option>
            {choices.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="actions">
        <button type="button" disabled={busy || !canRefresh} onClick={onRefresh}>
          {busy ? t('options.groups.refreshing') : t('options.groups.refresh')}
        </button>
      </div>
      {note && (
        <Banner tone={note.tone} id="groups-note">
          <p>{note.text}</p>
        </Banner>
      )}
    </section>
  );
}
