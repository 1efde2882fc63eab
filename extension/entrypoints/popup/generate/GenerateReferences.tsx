import { useState } from 'preact/hooks';
import type { ModelSpec, ReferenceRole } from '@@/shared';
import { Field } from '@/components/Field';
import { ReferenceRow } from '@/entrypoints/popup/generate/ReferenceRow';
import {
  addReference,
  allowedRoles,
  fileReference,
  type FormProblem,
  type GenerateForm,
  libraryChoices,
  libraryReference,
  type ProblemTarget,
  readAsDataUri,
  referenceCounts,
  removeReference,
  ROLE_KIND,
  rolesFor,
  setRole,
  toBody,
  urlReference,
} from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { describeParam } from '@/lib/tasks/task-presentation';
import '@/lib/i18n/generate.en';

/** What the proxy refused at submit, and the part of the form it names. */
export interface Refusal {
  target: ProblemTarget;
  message: string;
}

interface GenerateReferencesProps {
  form: GenerateForm;
  spec: ModelSpec;
  allowHttp: boolean;
  assets: AssetRecord[];
  /** Takes the change as a function of the form as it is now (see GenerateView). */
  setForm: (change: (current: GenerateForm) => GenerateForm) => void;
  problems: FormProblem[];
  refused: Refusal | null;
  general: string[];
}

/**
 * The form's references: the list with each one's role, and adding one as the chosen role from the
 * library, a URL or (images, where the model allows) a local file.
 */
export function GenerateReferences({ form, spec, allowHttp, assets, setForm, problems, refused, general }: GenerateReferencesProps) {
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
    setForm((current) => addReference(current, made.value));
  }

  async function addFile(input: HTMLInputElement) {
    const file = input.files?.[0];
    input.value = '';
    if (!file || !addRole) return;
    try {
      const made = fileReference(file.name, await readAsDataUri(file), file.size, addRole, spec);
      if (!made.ok) return setFileError(made.message);
      setFileError(null);
      setForm((current) => addReference(current, made.value));
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
              onRole={(next) => setForm((current) => setRole(current, ref.id, next))}
              onRemove={() => setForm((current) => removeReference(current, ref.id))}
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
                                setForm((current) => addReference(current, libraryReference(asset, addRole)));
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
