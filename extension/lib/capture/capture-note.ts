import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

/**
 * What the item says about how it reached the library: "Saved by link", or where its upload
 * stands ("Reading from the page: 12 MB of 48.3 MB", "Uploading 48.3 MB (the site needs
 * sign-in)…", "Uploaded 2.1 MB (the site needs sign-in)"). Null for records made before uploads
 * existed or listed from the library (nothing is known about them).
 */
export function captureNote(record: Pick<AssetRecord, 'capture'>): string | null {
  const capture = record.capture;
  if (!capture) return null;
  if (capture.how === 'link') return t('capture.note.link');
  const reason = t(`capture.reason.${capture.reason}`);
  const size = capture.size !== undefined ? formatSize(capture.size) : '';
  switch (capture.stage) {
    case 'reading':
      if (!capture.read) return t('capture.note.reading');
      return capture.size ? t('capture.note.readingOf', { read: formatSize(Math.min(capture.read, capture.size)), size }) : t('capture.note.readingSome', { read: formatSize(capture.read) });
    case 'waiting':
      return t('capture.note.waiting', { size, reason });
    case 'uploading':
      if (capture.sent && capture.size) return t('capture.note.uploadingOf', { sent: formatSize(Math.min(capture.sent, capture.size)), size, reason });
      return t('capture.note.uploading', { size, reason });
    default:
      return t('capture.note.uploaded', { size, reason });
  }
}

/** Progress of an upload being read or sent, 0 to 1, when its size is known (a progress bar), else null. */
export function captureProgress(record: Pick<AssetRecord, 'capture'>): number | null {
  const capture = record.capture;
  if (capture?.how !== 'upload' || !capture.size) return null;
  if (capture.stage === 'reading') return Math.min(1, (capture.read ?? 0) / capture.size);
  if (capture.stage === 'uploading' && capture.sent !== undefined) return Math.min(1, capture.sent / capture.size);
  return null;
}
