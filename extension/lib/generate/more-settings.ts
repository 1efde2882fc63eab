import type { GenerationParameter } from '@@/shared';
import type { FormParams, ParamValue } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/generate.en';

/**
 * What the Generate form shows up front and what waits behind "More settings", and the caption that
 * says, closed, what is set there. The popup's Generate view and the studio's forms both ask here.
 */

/** Parameters people change as often as the prompt: shown beside it, never folded away. */
const UP_FRONT: ReadonlySet<GenerationParameter> = new Set(['duration']);

export const isUpFront = (name: GenerationParameter): boolean => UP_FRONT.has(name);

/** How a switch reads in the caption, on and off. */
const SWITCHES = {
  generate_audio: ['generate.more.audio', 'generate.more.noAudio'],
  draft: ['generate.more.draft', 'generate.more.noDraft'],
  return_last_frame: ['generate.more.lastFrame', 'generate.more.noLastFrame'],
  watermark: ['generate.more.watermark', 'generate.more.noWatermark'],
  camera_fixed: ['generate.more.fixedCamera', 'generate.more.movingCamera'],
} as const;

/** A value as a caption word: "720p", "seed 42", "audio", "no watermark". */
function word(name: GenerationParameter, value: ParamValue): string {
  if (typeof value === 'boolean') {
    const pair = SWITCHES[name as keyof typeof SWITCHES];
    return pair ? t(pair[value ? 0 : 1]) : `${name} ${String(value)}`;
  }
  switch (name) {
    case 'seed':
      return t('generate.more.seed', { value });
    case 'frames':
      return t('generate.more.frames', { value });
    case 'priority':
      return t('generate.more.priority', { value });
    case 'service_tier':
      return t('generate.more.tier', { value });
    case 'callback_url':
      return t('generate.more.callback');
    default:
      return String(value);
  }
}

/**
 * The one-line caption of what is set behind "More settings", in request order, e.g.
 * "720p · 16:9 · seed 42 · audio"; "model defaults" when nothing is.
 */
export function settingsCaption(params: FormParams, order: readonly GenerationParameter[]): string {
  const words = order.filter((name) => !isUpFront(name) && params[name] !== undefined && params[name] !== '').map((name) => word(name, params[name]!));
  return words.length ? words.join(' · ') : t('generate.more.defaults');
}

/** What a value costs in money or time, said next to it ("" when nothing worth saying). */
export function settingNote(name: GenerationParameter, value: ParamValue | undefined): string {
  if (name === 'resolution' && value === '1080p') return t('generate.more.note.1080p');
  if (name === 'service_tier' && value === 'flex') return t('generate.more.note.flex');
  if (name === 'draft' && value === true) return t('generate.more.note.draft');
  return '';
}
