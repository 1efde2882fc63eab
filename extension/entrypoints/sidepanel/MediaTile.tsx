import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';
import type { PageMediaItem } from '@/lib/page-media/page-media-items';
import type { SaveStatus } from '@/lib/page-media/save-status';
import '@/lib/i18n/sidepanel.en';

const TYPE_LABEL = { image: 'library.assetType.Image', video: 'library.assetType.Video', audio: 'library.assetType.Audio' } as const;

export interface MediaTileProps {
  item: PageMediaItem;
  /** Its place in the list: the checkbox's id. */
  index: number;
  /** A label for the checkbox: the item's name. */
  name: string;
  size: { width: number; height: number } | undefined;
  selected: boolean;
  status: SaveStatus | undefined;
  onToggle: (on: boolean) => void;
  /** The preview learnt the item's dimensions (an image's natural size, a video's). */
  onMeasured: (width: number, height: number) => void;
  /** Already in the library: the name of the group holding it. */
  inLibrary?: string;
}

function statusText(status: SaveStatus): string {
  return status.kind === 'failed' ? t('sidepanel.status.failed', { message: status.message }) : t(`sidepanel.status.${status.kind}`);
}

/** One item of the grid: a checkbox labelled by the item, its preview, type, format and size, and its save status. */
export function MediaTile({ item, index, name, size, selected, status, onToggle, onMeasured, inLibrary }: MediaTileProps) {
  const id = `pm-item-${index}`;
  const facts = [t(TYPE_LABEL[item.type]), item.format.toUpperCase(), size ? t('sidepanel.item.size', size) : ''].filter(Boolean).join(' · ');
  return (
    <li class={`pm-tile${selected ? ' pm-tile--selected' : ''}`} data-url={item.url.slice(0, 2048)}>
      <label for={id} class="pm-preview">
        {item.tooLarge ? (
          <span class="pm-placeholder">{item.format.toUpperCase() || t(TYPE_LABEL[item.type])}</span>
        ) : item.type === 'image' ? (
          <img src={item.url} alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer" onLoad={(e) => onMeasured((e.target as HTMLImageElement).naturalWidth, (e.target as HTMLImageElement).naturalHeight)} />
        ) : item.type === 'video' ? (
          <video src={item.url} preload="metadata" muted aria-hidden="true" tabIndex={-1} onLoadedMetadata={(e) => onMeasured((e.target as HTMLVideoElement).videoWidth, (e.target as HTMLVideoElement).videoHeight)} />
        ) : (
          <span class="pm-placeholder">{item.format.toUpperCase() || t(TYPE_LABEL[item.type])}</span>
        )}
      </label>
      <p class="pm-name" title={name}>
        {name}
      </p>
      <div class="pm-caption">
        <input id={id} type="checkbox" checked={selected} disabled={Boolean(item.tooLarge)} onChange={(e) => onToggle((e.target as HTMLInputElement).checked)} aria-label={t('sidepanel.item.select', { name })} />
        <span class="pm-facts">{facts}</span>
      </div>
      {inLibrary !== undefined && (
        <p class="pm-in-library" data-testid="pm-in-library" aria-label={t('sidepanel.inLibrary', { group: inLibrary })} title={t('sidepanel.inLibrary', { group: inLibrary })}>
          {t('sidepanel.inLibraryShort')}
        </p>
      )}
      {item.tooLarge !== undefined && <p class="pm-note">{t('sidepanel.item.tooLarge', { size: formatSize(Math.floor(item.tooLarge * 0.75)) })}</p>}
      {status && (
        <p class={`pm-status pm-status--${status.kind}`} role="status">
          {statusText(status)}
        </p>
      )}
    </li>
  );
}
