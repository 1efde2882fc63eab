import type { ComponentChildren } from 'preact';
import type { ModelSpec } from '@@/shared';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import { GenerateReferences } from '@/entrypoints/popup/generate/GenerateReferences';
import { ModelSettings } from '@/entrypoints/popup/generate/ModelSettings';
import { type FormProblem, type GenerateForm, modelSummary, setParam, switchModel } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import '@/entrypoints/popup/generate/generate.css';
import '@/lib/i18n/generate.en';
import '@/lib/i18n/studio.en';

interface FormFieldsProps {
  form: GenerateForm;
  /** The form changed; `dropped`: what a model switch removed, in the member's words. */
  onForm: (form: GenerateForm, dropped?: string[]) => void;
  models: readonly ModelSpec[];
  spec: ModelSpec;
  allowHttp: boolean;
  assets: AssetRecord[];
  problems: FormProblem[];
  /** Ids and names of this form's model and prompt fields. */
  id: string;
  promptLabel: string;
  promptTestId: string;
  /** Shown between the prompt and the references (the chain toggle). */
  children?: ComponentChildren;
}

/**
 * The Generate form's fields for the studio: the model, the prompt, the references (the popup's own
 * picker: library, shared groups, URLs, local files) and the model's parameters, with every problem
 * next to its field. The rules are the Generate form's (lib/generate), never repeated here.
 */
export function FormFields({ form, onForm, models, spec, allowHttp, assets, problems, id, promptLabel, promptTestId, children }: FormFieldsProps) {
  const at = (kind: FormProblem['target']['kind']) => problems.filter((p) => p.target.kind === kind);
  const general = [...at('form'), ...at('references')].map((p) => p.message);
  return (
    <div class="gen studio-form">
      <Field id={`${id}-model`} label={t('studio.model')} hint={modelSummary(spec).join(' ')}>
        {(control) => (
          <select
            {...control}
            value={form.model}
            onChange={(e) => {
              const next = models.find((m) => m.id === (e.currentTarget as HTMLSelectElement).value);
              if (!next) return;
              const switched = switchModel(form, next, { allowHttp });
              onForm(switched.form, switched.dropped);
            }}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${id}-prompt`} label={promptLabel} error={at('prompt').map((p) => p.reason).join(' ') || null}>
        {(control) => (
          <textarea
            {...control}
            data-testid={promptTestId}
            rows={3}
            value={form.prompt}
            placeholder={t('generate.promptPlaceholder')}
            onInput={(e) => onForm({ ...form, prompt: (e.currentTarget as HTMLTextAreaElement).value })}
          />
        )}
      </Field>
      {children}
      <GenerateReferences form={form} spec={spec} allowHttp={allowHttp} assets={assets} setForm={(change) => onForm(change(form))} problems={problems} refused={null} general={general} />
      <ModelSettings
        spec={spec}
        params={form.params}
        errorsOf={(name) => problems.filter((p) => p.target.kind === 'param' && p.target.name === name).map((p) => p.reason)}
        onChange={(name, value) => onForm(setParam(form, name, value))}
      />
    </div>
  );
}

/** What a model switch dropped, until closed. */
export function Dropped({ lines, onClose }: { lines: string[]; onClose: () => void }) {
  if (!lines.length) return null;
  return (
    <Banner tone="warning">
      <ul class="gen-dropped">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <button type="button" class="link" onClick={onClose}>
        {t('common.close')}
      </button>
    </Banner>
  );
}
