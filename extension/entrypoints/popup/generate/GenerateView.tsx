import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { modelSpec, type ModelSpec } from '@@/shared';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import { readUsage, refreshUsage } from '@/lib/budget/usage-refresh';
import { quoteWhenConnected, readinessClient } from '@/lib/generate/connected-quote';
import { useFormQuote } from '@/lib/generate/form-quote';
import { loadDraft, saveDraft } from '@/lib/generate/generate-draft';
import { tellBackground } from '@/lib/messaging/extension-messages';
import {
  emptyForm,
  type FormProblem,
  type GenerateForm,
  largeFiles,
  modelSummary,
  problems as formProblems,
  type ProblemTarget,
  setParam,
  switchModel,
  targetOf,
  toBody,
} from '@/lib/generate/generate-form';
import { cachedModels, loadModels } from '@/lib/generate/model-list';
import { readinessProblems, useReadiness } from '@/lib/generate/reference-readiness';
import { t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected, refusalMessage } from '@/lib/proxy/failure-message';
import { assetStore } from '@/lib/storage/asset-store';
import type { ModelsInfo } from '@/lib/storage/records/setting-values';
import { getConnection } from '@/lib/storage/stored-connection';
import { humanize, namedParam } from '@/lib/tasks/task-presentation';
import { resumeSubmissions, submitTask } from '@/lib/tasks/task-submit';
import '@/entrypoints/popup/generate/generate.css';
import { GenerateReferences, type Refusal } from '@/entrypoints/popup/generate/GenerateReferences';
import { ModelSettings } from '@/entrypoints/popup/generate/ModelSettings';
import { OVER_BUDGET_ID, overBudget, QuoteLine } from '@/entrypoints/popup/generate/QuoteLine';
import { useFirstPaintMark } from '@/lib/popup/first-paint';
import '@/lib/i18n/generate.en';

const readAssets = () => assetStore.all();
const askQuote = quoteWhenConnected;

type Load = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

interface GenerateViewProps {
  /** Called after a task was recorded and sent (or is being sent): the shell shows the Tasks tab. */
  onSubmitted?: (localId: string) => void;
}

/**
 * The Generate tab: a model, a prompt, references and the model's parameters. Every rule of the
 * model is checked before submit and shown next to the field it concerns; submit stays disabled
 * while anything is wrong.
 */
export function GenerateView({ onSubmitted }: GenerateViewProps) {
  const [info, setInfo] = useState<ModelsInfo | null>(null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [allowHttpSetting, setAllowHttpSetting] = useState(false);
  const [form, setFormState] = useState<GenerateForm>(() => loadDraft() ?? emptyForm(''));
  const [dropped, setDropped] = useState<string[]>([]);
  const [promptTouched, setPromptTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The last create was refused for the budgets (what to do, not a fault of the form). */
  const [budgetRefused, setBudgetRefused] = useState<string | null>(null);
  const assets = useDb(readAssets, ['assets']) ?? [];
  const usage = useDb(readUsage, ['settings']);
  useFirstPaintMark(info !== null || load.state !== 'loading');

  const allowHttp = info?.allowHttp ?? allowHttpSetting;
  // Every change applies to the form as it is now, not as the last render saw it: the model list
  // arriving, or two edits before the next render (a select, then typing), must not undo each other.
  const latest = useRef(form);
  const setForm = (next: GenerateForm | ((current: GenerateForm) => GenerateForm)) => {
    const value = typeof next === 'function' ? next(latest.current) : next;
    latest.current = value;
    setFormState(value);
    saveDraft(value);
    setRefused(null);
    setBudgetRefused(null);
  };

  async function refreshModels() {
    setLoad({ state: 'loading' });
    const connected = await connectedClient();
    if (!connected) return setLoad({ state: 'failed', message: notConnected().message });
    setAllowHttpSetting(Boolean(connected.connection.allowHttpMedia));
    // Creates left unanswered when the popup last closed are repeated now (same keys).
    void resumeSubmissions(connected.client).catch(() => {});
    try {
      setInfo(await loadModels(connected.client, Boolean(connected.connection.allowHttpMedia)));
      setLoad({ state: 'ready' });
    } catch (error) {
      if (await handleUnauthorized(error)) return;
      setLoad({ state: 'failed', message: t('generate.modelsFailed', { message: error instanceof Error ? error.message : String(error) }) });
    }
  }

  useEffect(() => {
    void cachedModels().then((cached) => cached && setInfo((current) => current ?? cached));
    void getConnection().then((c) => setAllowHttpSetting(Boolean(c?.allowHttpMedia)));
    void refreshModels();
  }, []);

  const models = info?.models ?? [];
  const spec: ModelSpec = models.find((m) => m.id === form.model) ?? modelSpec(form.model);

  // A form without a model (first use) or with one no longer offered moves to an offered model.
  useEffect(() => {
    const current = latest.current;
    if (!info || !models.length || models.some((m) => m.id === current.model)) return;
    if (!current.model) return setForm({ ...current, model: models[0]!.id });
    const switched = switchModel(current, models[0]!, { allowHttp });
    setDropped([t('generate.modelGone', { model: modelSpec(current.model).label }), ...switched.dropped]);
    setForm(switched.form);
  }, [info, form.model]);

  const readiness = useReadiness(form, readinessClient);
  const problems = useMemo(
    () => (form.model ? [...formProblems(form, spec, { allowHttp }), ...readinessProblems(form, spec, readiness)] : []),
    [form, spec, allowHttp, readiness],
  );
  const body = toBody(form, spec);
  // The proxy's word on the valid form: its cost against the budgets, or the field it refuses as the create would.
  const { view: quote, refresh: requote } = useFormQuote(form.model && !problems.length ? body : null, askQuote);
  const periods = { member: usage?.period, team: usage?.team.period };
  const over = overBudget(quote, periods);
  const quoteRefused = quote.state === 'refused' ? refusalOf(quote.failure.message, quote.failure.field) : null;
  const shownRefusal = refused ?? quoteRefused;
  const blockers = problems.length + (quoteRefused ? 1 : 0);
  const at = (match: (target: ProblemTarget) => boolean) => problems.filter((p) => match(p.target));
  const refusedAt = (match: (target: ProblemTarget) => boolean) => (shownRefusal && match(shownRefusal.target) ? [shownRefusal.message] : []);
  const messages = (list: FormProblem[], match: (target: ProblemTarget) => boolean) => [...list.map((p) => p.reason), ...refusedAt(match)];

  /** The proxy's refusal of the body, at the part of the form it names. */
  function refusalOf(message: string, param?: string): Refusal {
    const field = param ?? namedParam(message);
    return { target: field ? targetOf(field, form) : { kind: 'form' }, message: t('generate.refused', { message: humanize(message, body, spec) }) };
  }

  function chooseModel(id: string) {
    const next = models.find((m) => m.id === id) ?? modelSpec(id);
    const switched = switchModel(latest.current, next, { allowHttp });
    setDropped(switched.dropped);
    setForm(switched.form);
  }

  async function submit() {
    setPromptTouched(true);
    if (blockers || over || submitting) return;
    setSubmitting(true);
    setNotice(null);
    setBudgetRefused(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setNotice(notConnected().message);
      const outcome = await submitTask(connected.client, toBody(form, spec));
      void tellBackground({ type: 'arkbridge:sync' });
      // The budget line shows what this create reserved (or why it was refused).
      void refreshUsage();
      requote();
      const { record, failure } = outcome;
      if (record.status === 'failed' && failure?.kind === 'rejected' && failure.refusal) {
        // Nothing was created; the form stays as filled, and nothing is sent again by itself.
        setBudgetRefused(refusalMessage(failure.refusal));
        return;
      }
      if (record.status === 'failed') {
        setRefused(refusalOf(record.error?.message ?? ''));
        return;
      }
      setDropped([]);
      onSubmitted?.(record.localId);
    } catch (error) {
      if (await handleUnauthorized(error)) return;
      setNotice(error instanceof ApiError ? error.message : t('generate.unexpected', { message: String(error) }));
    } finally {
      setSubmitting(false);
    }
  }

  if (load.state === 'loading' && !info) return <p aria-busy="true">{t('generate.loadingModels')}</p>;
  if (!info) {
    return (
      <div class="gen">
        <Banner tone="error">{load.state === 'failed' ? load.message : ''}</Banner>
        <button type="button" onClick={() => void refreshModels()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  if (!models.length) return <Banner tone="warning">{t('generate.noModels')}</Banner>;

  const promptErrors = messages(promptTouched ? at((x) => x.kind === 'prompt') : [], (x) => x.kind === 'prompt');
  const hidden = !promptTouched && problems.length > 0 && problems.every((p) => p.target.kind === 'prompt');
  const general = at((x) => x.kind === 'form' || x.kind === 'references');
  const large = largeFiles(form);

  return (
    <form
      class="gen"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {load.state === 'failed' && <Banner tone="warning">{load.message}</Banner>}
      {dropped.length > 0 && (
        <Banner tone="warning">
          <p>{t('generate.droppedTitle', { model: spec.label })}</p>
          <ul class="gen-dropped">
            {dropped.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <button type="button" class="link" onClick={() => setDropped([])}>
            {t('common.close')}
          </button>
        </Banner>
      )}

      <Field id="gen-model" label={t('generate.model')} hint={modelSummary(spec).join(' ')}>
        {(control) => (
          <select {...control} value={form.model} onChange={(e) => chooseModel((e.currentTarget as HTMLSelectElement).value)}>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        )}
      </Field>

      <Field id="gen-prompt" label={t('generate.prompt')} error={promptErrors.join(' ') || null}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={form.prompt}
            placeholder={t('generate.promptPlaceholder')}
            onInput={(e) => {
              const prompt = (e.currentTarget as HTMLTextAreaElement).value;
              setForm((current) => ({ ...current, prompt }));
            }}
            onBlur={() => setPromptTouched(true)}
          />
        )}
      </Field>

      <GenerateReferences
        form={form}
        spec={spec}
        allowHttp={allowHttp}
        assets={assets}
        setForm={setForm}
        problems={problems}
        refused={shownRefusal}
        general={[...general.map((p) => p.message), ...refusedAt((x) => x.kind === 'form' || x.kind === 'references')]}
      />
      {large.length > 0 && <Banner tone="warning">{t('generate.file.large', { names: large.map((r) => r.label).join(', ') })}</Banner>}

      <ModelSettings
        spec={spec}
        params={form.params}
        errorsOf={(name) => messages(at((x) => x.kind === 'param' && x.name === name), (x) => x.kind === 'param' && x.name === name)}
        onChange={(name, value) => setForm((current) => setParam(current, name, value))}
      />

      {notice && <Banner tone="error">{notice}</Banner>}
      {budgetRefused && (
        <Banner tone="error" id="gen-budget">
          {budgetRefused}
        </Banner>
      )}
      <div class="gen-submit">
        <button
          type="submit"
          class="primary"
          disabled={submitting || blockers > 0 || over !== null}
          aria-describedby={[blockers > 0 && 'gen-blocked', over !== null && OVER_BUDGET_ID].filter(Boolean).join(' ') || undefined}
        >
          {submitting ? t('generate.submitting') : t('generate.submit')}
        </button>
        {blockers > 0 && (
          <p class="gen-blocked" id="gen-blocked">
            {hidden ? t('generate.needPrompt') : t('generate.blocked', { count: blockers })}
          </p>
        )}
      </div>
      <QuoteLine view={quote} periods={periods} />
      <p class="gen-muted">{t('generate.keyNote')}</p>
    </form>
  );
}
