import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { LIMITS } from '@@/shared';
import { Banner } from '@/components/Banner';
import { Emphasis } from '@/components/Emphasis';
import { Field } from '@/components/Field';
import { NEW_GROUP_WORDING, type PendingItem } from '@/entrypoints/newgroup/new-group-page';
import { t } from '@/lib/i18n/translate';
import { checkGroup, createGroup, type GroupField, type GroupProblem } from '@/lib/library/group-actions';
import { type AddItemReply, sendToBackground } from '@/lib/messaging/extension-messages';
import { connectedClient } from '@/lib/proxy/connected-client';
import { getConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/options.en';

interface NewGroupProps {
  /** The right-clicked item to add to the new group; null: only create the group. */
  item: PendingItem | null;
  /** Closes the window after success (tests pass their own). */
  close?: () => void;
  closeDelayMs?: number;
}

type Problem = { text: string; reconnect?: boolean };

/** "New group…" from the context menu: name and describe a group, create it, add the item to it. */
export function NewGroup({ item, close = () => window.close(), closeDelayMs = 1500 }: NewGroupProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<GroupField, string>>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const descriptionInput = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    nameInput.current?.focus();
    void getConnection().then((connection) => {
      if (!connection || connection.needsReconnect) {
        setProblem({ text: connection ? t('newgroup.error.needsReconnect') : t('newgroup.error.notConnectedYet'), reconnect: true });
      }
    });
  }, []);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(close, closeDelayMs);
    return () => clearTimeout(timer);
  }, [done]);

  function show(problem: GroupProblem) {
    if (!problem.field) {
      setProblem({ text: problem.message, ...(problem.reconnect ? { reconnect: true } : {}) });
      return;
    }
    setErrors({ [problem.field]: problem.message });
    (problem.field === 'name' ? nameInput : descriptionInput).current?.focus();
  }

  async function submit() {
    if (busy || done) return;
    setProblem(null);
    const checked = checkGroup('CreateAssetGroup', name, description);
    if (!checked.ok) return show(checked.problem);
    setErrors({});
    setBusy(true);
    try {
      const connected = await connectedClient();
      if (!connected) {
        setProblem({ text: t('newgroup.error.notConnected'), reconnect: true });
        return;
      }
      const created = await createGroup(connected.client, name, description, { wording: NEW_GROUP_WORDING });
      if (!created.ok) return show(created.problem);
      const group = created.value;
      if (!item) {
        setDone(t('newgroup.created', { name: group.name }));
        return;
      }
      let reply: AddItemReply | undefined;
      try {
        reply = await sendToBackground<AddItemReply | undefined>({ type: 'arkbridge:add', item: { groupId: group.id, url: item.url, name: item.name, type: item.type, ...(item.page ? { page: item.page } : {}) } });
      } catch {
        setProblem({ text: t('newgroup.addFailed', { name: group.name }) });
        return;
      }
      if (reply && reply.ok === false) {
        setProblem({ text: t('newgroup.notAdded', { name: group.name, message: reply.message }) });
        return;
      }
      setDone(t('newgroup.added', { name: group.name }));
    } finally {
      setBusy(false);
    }
  }

  const nameLength = name.trim().length;
  const descriptionLength = description.trim().length;
  return (
    <main>
      <h1>{t('newgroup.title')}</h1>
      {item ? (
        <p class="item">
          <Emphasis message="newgroup.item" params={{ name: item.name, type: t(`newgroup.type.${item.type}`) }} strong="name" />
          <br />
          <span class="item__url">{item.url}</span>
        </p>
      ) : (
        <p class="item">{t('newgroup.empty')}</p>
      )}
      {done ? (
        <Banner tone="success" id="done">
          <p>{done}</p>
        </Banner>
      ) : (
        <form
          noValidate
          aria-busy={busy ? 'true' : 'false'}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Field id="group-name" label={t('newgroup.name')} error={errors.name} hint={t('newgroup.chars', { count: nameLength, max: LIMITS.groupNameMax })}>
            {(control) => (
              <input {...control} ref={nameInput} type="text" autoComplete="off" value={name} onInput={(event) => setName(event.currentTarget.value)} />
            )}
          </Field>
          <Field
            id="group-description"
            label={t('newgroup.description')}
            error={errors.description}
            hint={t('newgroup.chars', { count: descriptionLength, max: LIMITS.groupDescriptionMax })}
          >
            {(control) => (
              <textarea {...control} ref={descriptionInput} rows={3} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
            )}
          </Field>
          {problem && (
            <Banner tone="error" id="problem">
              <p>{problem.text}</p>
              {problem.reconnect && (
                <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>
                  {t('newgroup.openOptions')}
                </button>
              )}
            </Banner>
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? t('newgroup.creating') : item ? t('newgroup.createAndAdd') : t('newgroup.create')}
            </button>
            <button type="button" onClick={close}>
              {t('newgroup.cancel')}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
