import type { ReferenceRole } from '@@/shared';
import type { FormReference } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/generate.en';

interface ReferenceRowProps {
  reference: FormReference;
  name: string;
  roles: ReferenceRole[];
  errors: string[];
  onRole: (role: ReferenceRole) => void;
  onRemove: () => void;
}

/** One reference of the form: its name in the request, its source, its role, what is wrong with it. */
export function ReferenceRow({ reference, name, roles, errors, onRole, onRemove }: ReferenceRowProps) {
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
