import type { GenerationParameter, ModelSpec } from '@@/shared';
import { type FormParams, type ParamValue, paramControls } from '@/lib/generate/generate-form';
import { isUpFront, settingNote, settingsCaption } from '@/lib/generate/more-settings';
import { t } from '@/lib/i18n/translate';
import { ParamField } from '@/entrypoints/popup/generate/ParamField';
import '@/lib/i18n/generate.en';

interface ModelSettingsProps {
  spec: ModelSpec;
  params: FormParams;
  /** The problems of one parameter, in the member's words. */
  errorsOf: (name: GenerationParameter) => string[];
  onChange: (name: GenerationParameter, value: ParamValue | undefined) => void;
}

/**
 * The model's parameters: the few people change often (duration) up front, the rest in a closed
 * "More settings" whose summary says, as a caption, what is set inside. Used by the popup's
 * Generate view and the studio's forms alike.
 */
export function ModelSettings({ spec, params, errorsOf, onChange }: ModelSettingsProps) {
  const controls = paramControls(spec);
  if (!controls.length) return <p class="gen-muted">{t('generate.noParameters')}</p>;
  const field = (control: (typeof controls)[number]) => {
    const note = settingNote(control.name, params[control.name]);
    return (
      <ParamField
        key={control.name}
        control={note ? { ...control, hint: [control.hint, note].filter(Boolean).join(' ') } : control}
        value={params[control.name]}
        errors={errorsOf(control.name)}
        onChange={(value) => onChange(control.name, value)}
      />
    );
  };
  const folded = controls.filter((c) => !isUpFront(c.name));
  // Problems behind the fold are counted in the caption, so a closed section never hides one.
  const toFix = folded.reduce((n, c) => n + errorsOf(c.name).length, 0);
  return (
    <>
      {controls.filter((c) => isUpFront(c.name)).map(field)}
      {folded.length > 0 && (
        <details class="gen-more" data-testid="more-settings">
          <summary>
            <span class="gen-more__title">{t('generate.more')}</span>{' '}
            <span class="gen-more__caption" data-testid="more-settings-caption">
              {settingsCaption(params, folded.map((c) => c.name))}
            </span>
            {toFix > 0 && <span class="gen-more__fix"> · {t('generate.more.toFix', { count: toFix })}</span>}
          </summary>
          <div class="gen-more__body">{folded.map(field)}</div>
        </details>
      )}
    </>
  );
}
