import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '@@/shared';
import { Field } from '@/components/Field';
import { t } from '@/lib/i18n/translate';
import { checkGroup, createGroup, type GroupField, groupFieldLabel, updateGroup } from '@/lib/library/group-actions';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected, type Problem } from '@/lib/proxy/failure-message';
import type { GroupRecord } from '@/lib/storage/records/group-record';

interface GroupFormProps {
  /** The group to rename/describe; absent: create a new (virtual) group. */
  group?: GroupRecord;
  onDone: (group: GroupRecord) => void;
  onCancel: () => void;
  /** A problem that is not about one field (shown by the view in a Banner). */
  onProblem: (problem: Problem | null) => void;
}

/** Create, or rename and describe, a group; checked with the shared schema before any request. */
export function GroupForm({ group, onDone, onCancel, onProblem }: GroupFormProps) {
  const editing = !!group;
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [errors, setErrors] = useState<Partial<Record<GroupField, string>>>({});
  const [busy, setBusy] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const descriptionInput = useRef<HTMLTextAreaElement>(null);

  useEffect(() => nameInput.current?.focus(), []);

  function show(problem: Problem<GroupField>) {
    if (problem.field) {
      setErrors({ [problem.field]: problem.message });
      (problem.field === 'name' ? nameInput : descriptionInput).current?.focus();
    } else onProblem(problem);
  }

  async function submit() {
    if (busy) return;
    onProblem(null);
    const checked = checkGroup(editing ? 'UpdateAssetGroup' : 'CreateAssetGroup', name, description);
    if (!checked.ok) return show(checked.problem);
    setErrors({});
    setBusy(true);
    try {
      const connected = await connectedClient();
      if (!connected) return onProblem(notConnected());
      const { client } = connected;
      const result = editing ? await updateGroup(client, group, name, description) : await createGroup(client, name, description);
      if (result.ok) onDone(result.value);
      else show(result.problem);
    } finally {
      setBusy(false);
    }
  }

  const prefix = editing ? 'library-edit' : 'library-new';
  return (
    <form
      class="group-form"
      noValidate
      aria-busy={busy ? 'true' : 'false'}
      aria-label={editing ? t('library.group.editTitle') : t('library.group.newTitle')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <Field
        id={`${prefix}-name`}
        label={groupFieldLabel('name')}
        error={errors.name}
        hint={t('library.chars', { count: name.trim().length, max: LIMITS.groupNameMax })}
      >
        {(control) => <input {...control} ref={nameInput} type="text" autoComplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field
        id={`${prefix}-description`}
        label={groupFieldLabel('description')}
        error={errors.description}
        hint={t('library.chars', { count: description.trim().length, max: LIMITS.groupDescriptionMax })}
      >
        {(control) => <textarea {...control} ref={descriptionInput} rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('library.saving') : editing ? t('common.save') : t('library.group.create')}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
