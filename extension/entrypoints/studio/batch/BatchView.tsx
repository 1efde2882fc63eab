import { useEffect, useMemo, useState } from 'preact/hooks';
import type { VideoCreateBody } from '@@/shared';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import { OVER_BUDGET_ID, overBudget, QuoteLine } from '@/entrypoints/popup/generate/QuoteLine';
import { BatchGrid } from '@/entrypoints/studio/batch/BatchGrid';
import type { Handoff } from '@/entrypoints/studio/handoff';
import { Dropped, FormFields } from '@/entrypoints/studio/parts/FormFields';
import { useStudioModels } from '@/entrypoints/studio/use-studio-models';
import { readUsage, refreshUsage } from '@/lib/budget/usage-refresh';
import { quoteWhenConnected, readinessClient } from '@/lib/generate/connected-quote';
import { type QuoteFn, useFormQuote } from '@/lib/generate/form-quote';
import { emptyForm, type GenerateForm, problems as formProblems, toBody } from '@/lib/generate/generate-form';
import { readinessProblems, useReadiness } from '@/lib/generate/reference-readiness';
import { t } from '@/lib/i18n/translate';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { useDb } from '@/lib/popup/use-db';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import { assetStore } from '@/lib/storage/asset-store';
import { batchStore } from '@/lib/storage/batch-store';
import { newLocalId } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { announceChange } from '@/lib/storage/store-changes';
import { taskStore } from '@/lib/storage/task-store';
import { batchQuote, expandBatch, MAX_BATCH_TASKS, randomSeed, seedAt } from '@/lib/studio/batch-plan';
import { canDraft, draftForm } from '@/lib/studio/draft-final';
import { submitTask } from '@/lib/tasks/task-submit';
import '@/entrypoints/studio/batch/batch.css';
import '@/lib/i18n/studio.en';

const FORM_KEY = 'arkbridge.studio.batch';
const readAssets = () => assetStore.all();
const readBatches = () => batchStore.newestFirst();
/** One quote per request shape, summed (batch-plan), through the Generate form's quoter (debounced, never stale). */
const askQuote: QuoteFn<VideoCreateBody[]> = batchQuote(quoteWhenConnected);

interface Saved {
  form: GenerateForm;
  also: string[];
  seeds: number;
  firstSeed: number;
  draft: boolean;
}
function loadSaved(): Saved | null {
  try {
    const saved = JSON.parse(localStorage.getItem(FORM_KEY) ?? 'null') as Saved | null;
    return saved && typeof saved.form?.model === 'string' ? saved : null;
  } catch {
    return null;
  }
}

interface BatchViewProps {
  handoff: Handoff | null;
  onHandoffTaken: () => void;
}

/** Batch: one prompt over N seeds and several models, its total quoted against the budget before launch, then its tasks as a grid. */
export function BatchView({ handoff, onHandoffTaken }: BatchViewProps) {
  const { models, specOf, allowHttp, info, failure } = useStudioModels();
  const assets = useDb(readAssets, ['assets']) ?? [];
  const usage = useDb(readUsage, ['settings']);
  const batches = useDb(readBatches, ['batches']) ?? [];
  const [state, setState] = useState<Saved>(() => loadSaved() ?? { form: emptyForm(''), also: [], seeds: 4, firstSeed: randomSeed(), draft: false });
  const [notes, setNotes] = useState<string[]>([]);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [launching, setLaunching] = useState(false);
  const [shownId, setShownId] = useState<string | null>(null);
  // Merged into the state as it is when applied, not as this render saw it: an effect (the model
  // list arriving) and the member's edits before the next render must not undo each other.
  const update = (next: Partial<Saved> | ((current: Saved) => Partial<Saved>)) =>
    setState((current) => ({ ...current, ...(typeof next === 'function' ? next(current) : next) }));
  useEffect(() => {
    localStorage.setItem(FORM_KEY, JSON.stringify({ ...state, form: { ...state.form, references: state.form.references.filter((r) => r.source !== 'file') } }));
  }, [state]);
  useEffect(() => {
    if (!models.length) return;
    update((current) => (models.some((m) => m.id === current.form.model) ? {} : { form: { ...current.form, model: models[0]!.id } }));
  }, [models.length]);
  useEffect(() => {
    if (!handoff) return;
    onHandoffTaken();
    setNotes(handoff.notes);
    update({ form: handoff.form, also: [] });
  }, [handoff]);

  const form = state.form;
  const spec = specOf(form.model);
  const chosen = [spec, ...state.also.filter((id) => id !== form.model).map(specOf)];
  const draftable = chosen.every(canDraft);
  const draft = draftable && state.draft;
  const items = useMemo(
    () => expandBatch(draft ? draftForm(form, state.firstSeed) : form, { models: chosen, seeds: state.seeds, firstSeed: state.firstSeed }, { allowHttp }),
    [form, state.also.join(), state.seeds, state.firstSeed, draft, allowHttp, info],
  );
  const readiness = useReadiness(form, readinessClient);
  const baseProblems = [...formProblems(form, spec, { allowHttp }), ...readinessProblems(form, spec, readiness)];
  const otherProblems = items.flatMap((item) => (item.model === form.model ? [] : formProblems(item.form, specOf(item.model), { allowHttp }).map((p) => `${specOf(item.model).label}: ${p.message}`)));
  const tooMany = items.length > MAX_BATCH_TASKS;
  const blockers = baseProblems.length + new Set(otherProblems).size + (tooMany ? 1 : 0);
  const bodies = items.map((item) => toBody(item.form, specOf(item.model)));
  const { view: quote, refresh: requote } = useFormQuote<VideoCreateBody[]>(form.model && !blockers ? bodies : null, askQuote);
  const periods = { member: usage?.period, team: usage?.team.period };
  const over = overBudget(quote, periods);
  const shown = batches.find((b) => b.id === shownId) ?? batches[0];
  const tasks = useDb(
    async () => {
      const batch = shown && (await batchStore.get(shown.id));
      const found = await Promise.all((batch?.takes ?? []).map((id) => taskStore.get(id)));
      return new Map(found.flatMap((task): [string, TaskRecord][] => (task ? [[task.localId, task]] : [])));
    },
    ['tasks', 'batches'],
    [shown?.id],
  ) ?? new Map<string, TaskRecord>();

  if (!info) return failure ? <Banner tone="error">{failure}</Banner> : <p aria-busy="true">{t('studio.loadingModels')}</p>;
  if (!models.length) return <Banner tone="warning">{t('studio.noModels')}</Banner>;

  async function launch() {
    if (blockers || over || launching) return;
    setLaunching(true);
    setMessage(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setMessage({ tone: 'error', text: notConnected().message });
      const batch = { id: newLocalId(), form, takes: items.map(() => newLocalId()), createdAt: Date.now() };
      await batchStore.put(batch);
      announceChange('batches');
      setShownId(batch.id);
      let refused = 0;
      let reason = '';
      for (const [i, body] of bodies.entries()) {
        const { record, failure: why } = await submitTask(connected.client, body, Date.now, { localId: batch.takes[i]! });
        if (record.status === 'failed') {
          refused++;
          reason ||= record.error?.message ?? '';
          // Refused for the budget: the rest would be too.
          if (why?.kind === 'rejected' && why.refusal) break;
        }
      }
      void tellBackground({ type: 'arkbridge:sync' });
      void refreshUsage();
      requote();
      setMessage(refused ? { tone: 'error', text: t('studio.batch.refused', { count: refused, message: reason }) } : { tone: 'success', text: t('studio.batch.launched', { count: bodies.length }) });
    } catch (error) {
      if (!(await handleUnauthorized(error))) setMessage({ tone: 'error', text: t('studio.unexpected', { message: error instanceof ApiError ? error.message : String(error) }) });
    } finally {
      setLaunching(false);
    }
  }

  const droppedLines = [...new Set(items.filter((i) => i.dropped.length).map((i) => t('studio.batch.dropped', { model: specOf(i.model).label, items: i.dropped.join(' ') })))];
  const noSeed = chosen.filter((m) => !m.parameters.seed).map((m) => t('studio.batch.noSeed', { model: m.label }));

  return (
    <div class="batch">
      <h2>{t('studio.batch.title')}</h2>
      <Dropped lines={notes} onClose={() => setNotes([])} />
      <div class="batch__columns">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void launch();
          }}
        >
          <FormFields form={form} onForm={(next, lines) => (update({ form: next }), lines && setNotes(lines))} models={models} spec={spec} allowHttp={allowHttp} assets={assets} problems={baseProblems} id="batch" promptLabel={t('studio.prompt')} promptTestId="batch-prompt" />
          <fieldset class="batch-models">
            <legend>{t('studio.batch.also')}</legend>
            {models
              .filter((m) => m.id !== form.model)
              .map((m) => (
                <div key={m.id} class="batch-model">
                  <input
                    id={`batch-also-${m.id}`}
                    type="checkbox"
                    data-testid="batch-model"
                    checked={state.also.includes(m.id)}
                    onChange={(e) => {
                      const checked = (e.currentTarget as HTMLInputElement).checked;
                      update((current) => ({ also: checked ? [...current.also.filter((id) => id !== m.id), m.id] : current.also.filter((id) => id !== m.id) }));
                    }}
                  />
                  <label for={`batch-also-${m.id}`}>{m.label}</label>
                </div>
              ))}
          </fieldset>
          <div class="studio-bar">
            <Field id="batch-seeds" label={t('studio.batch.seeds')} hint={t('studio.batch.seedsHint', { max: MAX_BATCH_TASKS })}>
              {(control) => <input {...control} data-testid="batch-seeds" type="number" min={1} max={MAX_BATCH_TASKS} value={state.seeds} onInput={(e) => update({ seeds: Math.max(1, Math.trunc(Number((e.currentTarget as HTMLInputElement).value) || 1)) })} />}
            </Field>
            <Field id="batch-first-seed" label={t('studio.batch.firstSeed')} hint={t('studio.batch.firstSeedHint', { first: seedAt(state.firstSeed, 0), second: seedAt(state.firstSeed, 1) })}>
              {(control) => <input {...control} type="number" min={0} max={4294967295} value={state.firstSeed} onInput={(e) => update({ firstSeed: seedAt(Number((e.currentTarget as HTMLInputElement).value) || 0, 0) })} />}
            </Field>
          </div>
          {noSeed.map((line) => (
            <p key={line} class="studio-muted">
              {line}
            </p>
          ))}
          {draftable && (
            <div class="field studio-chain">
              <input id="batch-draft" type="checkbox" data-testid="batch-draft" checked={state.draft} onChange={(e) => update({ draft: (e.currentTarget as HTMLInputElement).checked })} />
              <label for="batch-draft">{t('studio.batch.draft')}</label>
            </div>
          )}
          {droppedLines.map((line) => (
            <p key={line} class="studio-muted">
              {line}
            </p>
          ))}
          {[...new Set(otherProblems)].map((line) => (
            <p key={line} class="gen-error">
              {line}
            </p>
          ))}
          {tooMany && <p class="gen-error">{t('studio.batch.tooMany', { max: MAX_BATCH_TASKS, count: items.length })}</p>}
          <div class="batch-total" data-testid="quote-total">
            <h3>
              {t('studio.batch.quote')}: {t('studio.batch.count', { count: items.length })}
            </h3>
            {quote.state === 'none' && <p class="studio-muted">{t('studio.batch.quoteNone')}</p>}
            <QuoteLine view={quote} periods={periods} />
          </div>
          <button type="submit" class="primary" data-testid="launch-batch" disabled={launching || blockers > 0 || over !== null} aria-describedby={[blockers > 0 && 'batch-blocked', over !== null && OVER_BUDGET_ID].filter(Boolean).join(' ') || undefined}>
            {launching ? t('studio.batch.launching') : t('studio.batch.launch')}
          </button>
          {blockers > 0 && (
            <p class="studio-muted" id="batch-blocked">
              {t('studio.batch.blocked', { count: blockers })}
            </p>
          )}
          {message && <Banner tone={message.tone}>{message.text}</Banner>}
        </form>
        {shown ? <BatchGrid batches={batches} shown={shown} tasks={tasks} specOf={specOf} onShow={setShownId} /> : <p class="empty-state" data-testid="empty-batch">{t('studio.batch.none')}</p>}
      </div>
    </div>
  );
}
