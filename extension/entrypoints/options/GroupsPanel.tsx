import { Banner, type BannerTone } from '../../components/Banner';
import { Field } from '../../components/Field';
import type { GroupRecord } from '../../lib/db';

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
  // Only virtual groups take web captures; real-person groups come from the portrait flow.
  const choices = groups.filter((g) => g.type === 'AIGC');
  const selected = choices.some((g) => g.id === defaultGroupId) ? defaultGroupId! : '';
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">Groups</h2>
      <Field id="default-group" label="Default group" hint="Where “Add to asset library” in the right-click menu puts items first.">
        {(control) => (
          <select {...control} value={selected} onChange={(event) => onDefaultChange(event.currentTarget.value || null)}>
            <option value="">Automatic: the group you used last (or a new “Web captures” group)</option>
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
          {busy ? 'Refreshing…' : 'Refresh groups'}
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
