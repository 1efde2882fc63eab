import type { PageMediaType } from '@/lib/page-media/collect-page-media';
import { FILTER_TEXT_MAX, type MediaFilter, MEDIA_TYPES, SIZE_PRESETS } from '@/lib/page-media/media-filter';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/sidepanel.en';

const TYPE_LABEL = { image: 'sidepanel.filter.image', video: 'sidepanel.filter.video', audio: 'sidepanel.filter.audio' } as const;

/** The filters of "Media on this page": types, a minimum width and height, a format or text. */
export function MediaFilters({ filter, formats, onChange }: { filter: MediaFilter; formats: string[]; onChange: (next: MediaFilter) => void }) {
  const toggle = (type: PageMediaType, on: boolean) => onChange({ ...filter, types: MEDIA_TYPES.filter((t) => (t === type ? on : filter.types.includes(t))) });
  const size = (id: string, label: string, value: number, set: (n: number) => void) => (
    <span class="pm-size">
      <label for={id}>{label}</label>
      <select id={id} value={String(value)} onChange={(e) => set(Number((e.target as HTMLSelectElement).value))}>
        {SIZE_PRESETS.map((n) => (
          <option key={n} value={String(n)}>
            {n ? t('sidepanel.filter.pixels', { size: n }) : t('sidepanel.filter.anySize')}
          </option>
        ))}
      </select>
    </span>
  );
  return (
    <div class="pm-filters">
      <fieldset class="pm-types">
        <legend>{t('sidepanel.filter.types')}</legend>
        {MEDIA_TYPES.map((type) => (
          <span key={type} class="pm-type">
            <input id={`pm-type-${type}`} type="checkbox" checked={filter.types.includes(type)} onChange={(e) => toggle(type, (e.target as HTMLInputElement).checked)} />
            <label for={`pm-type-${type}`}>{t(TYPE_LABEL[type])}</label>
          </span>
        ))}
      </fieldset>
      <div class="pm-sizes">
        {size('pm-min-width', t('sidepanel.filter.minWidth'), filter.minWidth, (minWidth) => onChange({ ...filter, minWidth }))}
        {size('pm-min-height', t('sidepanel.filter.minHeight'), filter.minHeight, (minHeight) => onChange({ ...filter, minHeight }))}
      </div>
      <div class="pm-text">
        <label for="pm-text">{t('sidepanel.filter.text')}</label>
        <input
          id="pm-text"
          type="search"
          list="pm-formats"
          maxLength={FILTER_TEXT_MAX}
          placeholder={t('sidepanel.filter.textHint')}
          value={filter.text}
          onInput={(e) => onChange({ ...filter, text: (e.target as HTMLInputElement).value })}
        />
        <datalist id="pm-formats">
          {formats.map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      </div>
    </div>
  );
}
