import { useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { LIMITS } from '../../../shared';
import { Banner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { ProxyClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import { explainFailure } from '../../lib/connect';
import { getConnection, markNeedsReconnect } from '../../lib/connection';
import { rememberGroup } from '../../lib/groups';
import { sendToBackground, tellBackground, type AddItemReply } from '../../lib/messages';
import { checkGroupForm, createGroup, relabel, type GroupField, type KeyStore, type PendingItem } from './new-group';

interface NewGroupProps {
  /** The right-clicked item to add to the new group; null: only create the group. */
  item: PendingItem | null;
  keys: KeyStore;
  /** Closes the window after success (tests pass their own). */
  close?: () => void;
  closeDelayMs?: number;
}

type Problem = { text: string; reconnect?: boolean };

/** "New group…" from the context menu: name and describe a group, create it, add the item to it. */
export function NewGroup({ item, keys, close = () => window.close(), closeDelayMs = 1500 }: NewGroupProps) {
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
        setProblem({ text: connection ? 'The proxy no longer accepts your member token: reconnect in the options first.' : 'Arkbridge is not connected yet: connect it in the options first.', reconnect: true });
      }
    });
  }, []);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(close, closeDelayMs);
    return () => clearTimeout(timer);
  }, [done]);

  function showFieldProblem(field: GroupField | null, message: string) {
    if (!field) {
      setProblem({ text: message });
      return;
    }
    setErrors({ [field]: message });
    (field === 'name' ? nameInput : descriptionInput).current?.focus();
  }

  async function submit() {
    if (busy || done) return;
    setProblem(null);
    const checked = checkGroupForm(name, description);
    if (!checked.ok) {
      showFieldProblem(checked.problem.field, checked.problem.message);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const connection = await getConnection();
      if (!connection || connection.needsReconnect) {
        setProblem({ text: 'Arkbridge is not connected: connect it in the options, then try again.', reconnect: true });
        return;
      }
      let groupId: string;
      try {
        groupId = await createGroup(new ProxyClient(connection), checked.body, keys.current());
      } catch (error) {
        await showCreateFailure(error, connection.proxyUrl);
        return;
      }
      await rememberGroup({ id: groupId, name: checked.body.Name, description: checked.body.Description, type: 'AIGC' });
      if (!item) {
        await tellBackground({ type: 'arkbridge:groups-changed' });
        setDone(`Created ${checked.body.Name}; you can close this window`);
        return;
      }
      let reply: AddItemReply | undefined;
      try {
        reply = await sendToBackground<AddItemReply | undefined>({ type: 'arkbridge:add', item: { groupId, url: item.url, name: item.name, type: item.type } });
      } catch {
        setProblem({ text: `Created ${checked.body.Name}, but Arkbridge could not add the item to it. Add it from the right-click menu: the new group is listed there.` });
        return;
      }
      if (reply && reply.ok === false) {
        setProblem({ text: `Created ${checked.body.Name}, but the item was not added: ${reply.message}` });
        return;
      }
      setDone(`Added to ${checked.body.Name}; you can close this window`);
    } finally {
      setBusy(false);
    }
  }

  async function showCreateFailure(error: unknown, proxyUrl: string) {
    if (error instanceof ApiError) {
      const failure = error.failure;
      if (failure.kind === 'rejected' && failure.code === 'IdempotencyKeyReused') {
        keys.rotate();
        setProblem({
          text: 'This window already created a group under a different name, probably on an earlier attempt that lost its answer. Check your groups; submit again to create this one too.',
        });
        return;
      }
      if (failure.kind === 'rejected' && failure.field) {
        const relabelled = relabel(failure.field, failure.message);
        if (relabelled.field) {
          showFieldProblem(relabelled.field, relabelled.message);
          return;
        }
      }
      if (failure.kind === 'unauthorized') {
        await markNeedsReconnect();
        setProblem({ text: 'The proxy did not accept your member token: reconnect in the options, then try again.', reconnect: true });
        return;
      }
    }
    const { kind, message } = explainFailure(error, proxyUrl);
    // A lost answer is safe to retry: the same Idempotency-Key never creates a second group.
    setProblem({ text: kind === 'network' || kind === 'timeout' || kind === 'service' ? `${message}. Try again: it will not create the group twice.` : message });
  }

  const nameLength = name.trim().length;
  const descriptionLength = description.trim().length;
  return (
    <main>
      <h1>New group</h1>
      {item ? (
        <p class="item">
          The new group will receive <strong>{item.name}</strong> ({item.type.toLowerCase()}).
          <br />
          <span class="item__url">{item.url}</span>
        </p>
      ) : (
        <p class="item">Creates an empty group in your team's asset library.</p>
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
          <Field id="group-name" label="Group name" error={errors.name} hint={`${nameLength}/${LIMITS.groupNameMax} characters`}>
            {(control) => (
              <input {...control} ref={nameInput} type="text" autoComplete="off" value={name} onInput={(event) => setName(event.currentTarget.value)} />
            )}
          </Field>
          <Field id="group-description" label="Description (optional)" error={errors.description} hint={`${descriptionLength}/${LIMITS.groupDescriptionMax} characters`}>
            {(control) => (
              <textarea {...control} ref={descriptionInput} rows={3} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
            )}
          </Field>
          {problem && (
            <Banner tone="error" id="problem">
              <p>{problem.text}</p>
              {problem.reconnect && (
                <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>
                  Open Arkbridge options
                </button>
              )}
            </Banner>
          )}
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Creating…' : item ? 'Create group and add' : 'Create group'}
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </main>
  );
}
