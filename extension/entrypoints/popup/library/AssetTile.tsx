import { useState } from 'preact/hooks';
import { StatusChip } from '@/entrypoints/popup/library/StatusChips';
import { captureNote, captureProgress } from '@/lib/capture/capture-note';
import { t } from '@/lib/i18n/translate';
import { formatDuration, knownDuration, rememberDuration } from '@/lib/library/media-durations';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import '@/entrypoints/popup/library/grid.css';

/** Only an address the browser can fetch is shown (a record still uploading holds a stand-in). */
const fetchable = (url: string) => url.startsWith('https://') || url.startsWith('http://');

/**
 * One cell of the library grid: the thumbnail (an Active image's own address; a video's first
 * frame, from its metadata only), the type for video and audio with the duration once known, the
 * name, and the status when not Active. Media loads only while the cell is `visible` (in view, not
 * in the overscan), so scrolling past thousands of items fetches only what is looked at.
 */
export function AssetTile({ asset, visible }: { asset: AssetRecord; visible: boolean }) {
  const [duration, setDuration] = useState(() => knownDuration(asset.url));
  const live = visible && asset.status === 'Active' && fetchable(asset.url);
  const onMetadata = (event: Event) => {
    const value = (event.currentTarget as HTMLMediaElement).duration;
    rememberDuration(asset.url, value);
    setDuration(knownDuration(asset.url));
  };
  const note = asset.status === 'Failed' ? asset.error : asset.status === 'Active' ? null : captureNote(asset);
  const progress = asset.status === 'Queued' ? captureProgress(asset) : null;
  return (
    <div class="tile">
      <span class={`tile__media thumb--${asset.type.toLowerCase()}`}>
        {live && asset.type === 'Image' && <img src={asset.url} alt="" loading="lazy" decoding="async" />}
        {live && asset.type === 'Video' && <video src={asset.url} preload="metadata" muted playsInline onLoadedMetadata={onMetadata} />}
        {live && asset.type === 'Audio' && duration === undefined && <audio src={asset.url} preload="metadata" onLoadedMetadata={onMetadata} />}
        {asset.type !== 'Image' && (
          <span class="tile__type" aria-hidden="true">
            {asset.type === 'Video' ? '▶' : '♪'}
          </span>
        )}
        {duration !== undefined && <span class="tile__duration">{formatDuration(duration)}</span>}
      </span>
      <span class="row__name tile__name" title={asset.name}>
        {asset.name}
      </span>
      <span class="visually-hidden">{t(`library.assetType.${asset.type}`)}</span>
      {asset.status !== 'Active' && (
        <span class="tile__status">
          <StatusChip status={asset.status} />
          {note && (
            <span class={asset.status === 'Failed' ? 'row__error' : 'row__group'} title={note}>
              {note}
            </span>
          )}
        </span>
      )}
      {progress !== null && <progress class="tile__progress" max={1} value={progress} aria-label={note ?? asset.name} />}
    </div>
  );
}
