import { useEffect, useMemo, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import { ApiError } from '@/lib/proxy/api-failure';
import { getConnection } from '@/lib/storage/stored-connection';
import {
  addReference,
  allowedRoles,
  emptyForm,
  fileReference,
  largeFiles,
  libraryChoices,
  libraryReference,
  modelSummary,
  paramControls,
  problems as formProblems,
  readAsDataUri,
  referenceCounts,
  removeReference,
  ROLE_KIND,
  rolesFor,
  setParam,
  setRole,
  switchModel,
  targetOf,
  toBody,
  urlReference,
  type FormProblem,
  type FormReference,
  type GenerateForm,
  type ParamControl,
  type ProblemTarget,
} from '@/lib/generate/form';
import { loadDraft, saveDraft } from '@/lib/generate/draft';
import { cachedModels, loadModels, type ModelsInfo } from '@/lib/generate/models';
import { readinessProblems, useReadiness } from '@/lib/generate/readiness';
import { t } from '@/lib/i18n';
import { tellBackground } from '@/lib/messages';
import { useDb } from '@/lib/popup/use-db';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import { describeParam, humanize, namedParam } from '@/lib/tasks/present';
import { resumeSubmissions, submitTask } from '@/lib/tasks/submit';
import { modelSpec, type ModelSpec, type ReferenceRole } from '../../../../shared';
import { assetStore, type AssetRecord } from '@/lib/storage/asset-store';
import './generate.css';
import { useFirstPaintMark } from '@/lib/popup/first-paint';

const readAssets = () => assetStore.all();
const readinessClient = async () => (await connectedClient())?.client ?? null;

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
  const [refused, setRefused] = useState<{ target: ProblemTarget; message: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const assets = useDb(readAssets, ['assets']) ?? [];
  useFirstPaintMark(info !== null || load.state !== 'loading');

  const allowHttp = info?.allowHttp ?? allowHttpSetting;
  const setForm = (next: GenerateForm) => {
    setFormState(next);
    saveDraft(next);
    setRefused(null);
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
    if (!info || !models.length || models.some((m) => m.id === form.model)) return;
    if (!form.model) return setForm({ ...form, model: models[0]!.id });
    const switched = switchModel(form, models[0]!, { allowHttp });
    setDropped([t('generate.modelGone', { model: spec.label }), ...switched.dropped]);
    setForm(switched.form);
  }, [info, form.model]);

  const readiness = useReadiness(form, readinessClient);
  const problems = useMemo(
    () => (form.model ? [...formProblems(form, spec, { allowHttp }), ...readinessProblems(form, spec, readiness)] : []),
    [form, spec, allowHttp, readiness],
  );
  const at = (match: (target: ProblemTarget) => boolean) => problems.filter((p) => match(p.target));
  const refusedAt = (match: (target: ProblemTarget) => boolean) => (refused && match(refused.target) ? [refused.message] : []);
  const messages = (list: FormProblem[], match: (target: ProblemTarget) => boolean) => [...list.map((p) => p.reason), ...refusedAt(match)];
  const body = toBody(form, spec);

  function chooseModel(id: string) {
    const next = models.find((m) => m.id === id) ?? modelSpec(id);
    const switched = switchModel(form, next, { allowHttp });
    setDropped(switched.dropped);
    setForm(switched.form);
  }

  async function submit() {
    setPromptTouched(true);
    if (problems.length || submitting) return;
    setSubmitting(true);
    setNotice(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setNotice(notConnected().message);
      const outcome = await submitTask(connected.client, toBody(form, spec));
      void tellBackground({ type: 'arkbridge:sync' });
      const { record } = outcome;
      if (record.status === 'failed') {
        const message = record.error?.message ?? '';
        const field = namedParam(message);
        setRefused({ target: field ? targetOf(field, form) : { kind: 'form' }, message: t('generate.refused', { message: humanize(message, body, spec) }) });
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
            onInput={(e) => setForm({ ...form, prompt: (e.currentTarget as HTMLTextAreaElement).value })}
            onBlur={() => setPromptTouched(true)}
          />
        )}
      </Field>

      <References
        form={form}
        spec={spec}
        allowHttp={allowHttp}
        assets={assets}
        setForm={setForm}
        problems={problems}
        refused={refused}
        general={[...general.map((p) => p.message), ...refusedAt((x) => x.kind === 'form' || x.kind === 'references')]}
      />
      {large.length > 0 && <Banner tone="warning">{t('generate.file.large', { names: large.map((r) => r.label).join(', ') })}</Banner>}

      <fieldset class="gen-params">
        <legend>{t('generate.parameters')}</legend>
        {paramControls(spec).length === 0 && <p class="gen-muted">{t('generate.noParameters')}</p>}
        {paramControls(spec).map((control) => (
          <ParamField
            key={control.name}
            control={control}
            value={form.params[control.name]}
            errors={messages(at((x) => x.kind === 'param' && x.name === control.name), (x) => x.kind === 'param' && x.name === control.name)}
            onChange={(value) => setForm(setParam(form, control.name, value))}
          />
        ))}
      </fieldset>

      {notice && <Banner tone="error">{notice}</Banner>}
      <div class="gen-submit">
        <button type="submit" class="primary" disabled={submitting || problems.length > 0}>
          {submitting ? t('generate.submitting') : t('generate.submit')}
        </button>
        {problems.length > 0 && (
          <p class="gen-blocked" id="gen-blocked">
            {hidden ? t('generate.needPrompt') : t('generate.blocked', { count: problems.length })}
          </p>
        )}
      </div>
      <p class="gen-muted">{t('generate.keyNote')}</p>
    </form>
  );
}

// --- References ---------------------------------------------------------------------------------

interface ReferencesProps {
  form: GenerateForm;
  spec: ModelSpec;
  allowHttp: boolean;
  assets: AssetRecord[];
  setForm: (form: GenerateForm) => void;
  problems: FormProblem[];
  refused: { target: ProblemTarget; message: string } | null;
  general: string[];
}

function References({ form, spec, allowHttp, assets, setForm, problems, refused, general }: ReferencesProps) {
  const roles = allowedRoles(spec);
  const [role, setAddRole] = useState<ReferenceRole | null>(null);
  const addRole = role && roles.includes(role) ? role : (roles[0] ?? null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [filter, setFilter] = useState('');
  const body = toBody(form, spec);

  const choices = addRole ? libraryChoices(assets, addRole, spec) : [];
  const shown = choices.filter((a) => a.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const canFile = addRole !== null && ROLE_KIND[addRole] === 'image' && spec.dataUriImages;

  function addUrl() {
    if (!addRole) return;
    const made = urlReference(url, addRole, { allowHttp });
    if (!made.ok) return setUrlError(made.message);
    setUrlError(null);
    setUrl('');
    setForm(addReference(form, made.value));
  }

  async function addFile(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = '';
    if (!file || !addRole) return;
    try {
      const made = fileReference(file.name, await readAsDataUri(file), file.size, addRole, spec);
      if (!made.ok) return setFileError(made.message);
      setFileError(null);
      setForm(addReference(form, made.value));
    } catch (error) {
      setFileError(t('generate.file.unreadable', { message: error instanceof Error ? error.message : String(error) }));
    }
  }

  const counts = referenceCounts(form, spec).filter((c) => c.max !== null && (c.max > 0 || c.count > 0));

  return (
    <fieldset class="gen-refs">
      <legend>{t('generate.references')}</legend>
      {roles.length === 0 ? (
        <p class="gen-muted">{t('generate.textOnly', { model: spec.label })}</p>
      ) : (
        counts.length > 0 && (
          <p class="gen-muted">
            {counts.map((c) => t(`generate.count.${c.kind}`, { count: c.count, max: c.max ?? 0 })).join(' · ')}
          </p>
        )
      )}
      {general.map((message) => (
        <p key={message} class="gen-error">
          {message}
        </p>
      ))}
      {form.references.length > 0 && (
        <ol class="gen-ref-list">
          {form.references.map((ref, index) => (
            <ReferenceRow
              key={ref.id}
              reference={ref}
              name={describeParam(`content[${index + 1}]`, body)}
              roles={rolesFor(ref.kind, spec)}
              errors={[
                ...problems.filter((p) => p.target.kind === 'reference' && p.target.id === ref.id).map((p) => p.reason),
                ...(refused?.target.kind === 'reference' && refused.target.id === ref.id ? [refused.message] : []),
              ]}
              onRole={(next) => setForm(setRole(form, ref.id, next))}
              onRemove={() => setForm(removeReference(form, ref.id))}
            />
          ))}
        </ol>
      )}

      {addRole && (
        <div class="gen-add">
          <Field id="gen-add-role" label={t('generate.addAs')}>
            {(control) => (
              <select {...control} value={addRole} onChange={(e) => setAddRole((e.currentTarget as HTMLSelectElement).value as ReferenceRole)}>
                {roles.map((r) => (
                  <option key={r} value={r}>
                    {t(`generate.role.${r}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>

          {spec.assetRefs ? (
            <div class="gen-library">
              <button type="button" aria-expanded={picking} onClick={() => setPicking(!picking)}>
                {t('generate.fromLibrary')}
              </button>
              {picking && (
                <div class="gen-picker">
                  {choices.length === 0 ? (
                    <p class="gen-muted">{t('generate.library.none', { kind: t(`generate.kind.${ROLE_KIND[addRole]}`) })}</p>
                  ) : (
                    <>
                      <Field id="gen-library-filter" label={t('generate.library.filter')}>
                        {(control) => <input {...control} type="search" value={filter} onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />}
                      </Field>
                      <ul class="gen-picker-list">
                        {shown.map((asset) => (
                          <li key={asset.localId}>
                            <button
                              type="button"
                              onClick={() => {
                                setForm(addReference(form, libraryReference(asset, addRole)));
                                setPicking(false);
                              }}
                            >
                              {t('generate.library.add', { name: asset.name })}
                            </button>
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                </div>
              )}
            </div>
          ) : (
            <p class="gen-muted">{t('generate.library.notAccepted', { model: spec.label })}</p>
          )}

          <Field id="gen-add-url" label={t('generate.url.label')} error={urlError} hint={allowHttp ? t('generate.url.hintHttp') : t('generate.url.hint')}>
            {(control) => (
              <div class="gen-inline">
                <input
                  {...control}
                  type="url"
                  value={url}
                  placeholder="https://"
                  onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      addUrl();
                    }
                  }}
                />
                <button type="button" onClick={addUrl} disabled={!url.trim()}>
                  {t('generate.url.add')}
                </button>
              </div>
            )}
          </Field>

          {canFile && (
            <Field id="gen-add-file" label={t('generate.file.label')} error={fileError} hint={t('generate.file.hint')}>
              {(control) => <input {...control} type="file" accept="image/*" onChange={(e) => void addFile(e.currentTarget as HTMLInputElement)} />}
            </Field>
          )}
        </div>
      )}
    </fieldset>
  );
}

interface ReferenceRowProps {
  reference: FormReference;
  name: string;
  roles: ReferenceRole[];
  errors: string[];
  onRole: (role: ReferenceRole) => void;
  onRemove: () => void;
}

function ReferenceRow({ reference, name, roles, errors, onRole, onRemove }: ReferenceRowProps) {
  const id = `gen-ref-${reference.id}`;
  const options = roles.includes(reference.role) ? roles : [reference.role, ...roles];
  return (
    <li class={errors.length ? 'gen-ref gen-ref--invalid' : 'gen-ref'} data-ref={name}>
      <div class="gen-ref__head">
        <strong>{name}</strong>
        <span class="gen-ref__source">{t(`generate.source.${reference.source}`)}</span>
        <span class="gen-ref__label" title={reference.source === 'file' ? reference.label : reference.url}>
          {reference.label}
        </span>
      </div>
      <div class="gen-inline">
        <label for={`${id}-role`}>{t('generate.role')}</label>
        <select
          id={`${id}-role`}
          value={reference.role}
          aria-invalid={errors.length ? 'true' : undefined}
          aria-describedby={errors.length ? `${id}-errors` : undefined}
          onChange={(e) => onRole((e.currentTarget as HTMLSelectElement).value as ReferenceRole)}
        >
          {options.map((r) => (
            <option key={r} value={r}>
              {t(`generate.role.${r}`)}
            </option>
          ))}
        </select>
        <button type="button" onClick={onRemove} aria-label={t('generate.removeNamed', { name })}>
          {t('generate.remove')}
        </button>
      </div>
      {errors.length > 0 && (
        <p class="gen-error" id={`${id}-errors`}>
          {errors.join(' ')}
        </p>
      )}
    </li>
  );
}

// --- Parameters ---------------------------------------------------------------------------------

interface ParamFieldProps {
  control: ParamControl;
  value: string | number | boolean | undefined;
  errors: string[];
  onChange: (value: string | number | boolean | undefined) => void;
}

function ParamField({ control, value, errors, onChange }: ParamFieldProps) {
  const id = `gen-param-${control.name}`;
  const error = errors.join(' ') || null;
  switch (control.control) {
    case 'select':
      return (
        <Field id={id} label={control.label} error={error} hint={control.hint || undefined}>
          {(props) => (
            <select {...props} value={value === undefined ? '' : String(value)} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value || undefined)}>
              <option value="">{t('generate.default')}</option>
              {control.values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'number':
      return (
        <Field id={id} label={control.label} error={error} hint={control.hint}>
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={control.min}
              max={control.max}
              step={control.step ?? 1}
              placeholder={t('generate.default')}
              value={value === undefined ? '' : String(value)}
              onInput={(e) => {
                const raw = (e.currentTarget as HTMLInputElement).value.trim();
                onChange(raw === '' ? undefined : Number(raw));
              }}
            />
          )}
        </Field>
      );
    case 'checkbox':
      return (
        <Field id={id} label={control.label} error={error} hint={control.hint || undefined}>
          {(props) => (
            <input {...props} type="checkbox" class="gen-check" checked={typeof value === 'boolean' ? value : control.default} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)} />
          )}
        </Field>
      );
  }
}
