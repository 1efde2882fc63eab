import { Field } from '@/components/Field';
import type { ParamControl } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/generate.en';

interface ParamFieldProps {
  control: ParamControl;
  value: string | number | boolean | undefined;
  errors: string[];
  onChange: (value: string | number | boolean | undefined) => void;
}

/** One parameter of the chosen model, as the control its values call for. */
export function ParamField({ control, value, errors, onChange }: ParamFieldProps) {
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
