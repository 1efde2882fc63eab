import type { Ref } from 'preact';
import { UPLOAD_TYPES } from '@@/shared';
import { t } from '@/lib/i18n/translate';

/** What the file picker offers: the media types the proxy takes, and their formats as extensions. */
export const ACCEPT = [...Object.keys(UPLOAD_TYPES), ...new Set(Object.values(UPLOAD_TYPES).flatMap((a) => a.formats.map((f) => `.${f}`)))].join(',');

/** The file picker behind "Add files…" (hidden: the button opens it): several files, accepted types only. */
export function FileInput({ inputRef, onFiles }: { inputRef: Ref<HTMLInputElement>; onFiles: (files: File[]) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      multiple
      accept={ACCEPT}
      hidden
      aria-label={t('files.add')}
      onChange={(event) => {
        const files = [...(event.currentTarget.files ?? [])];
        // Cleared, so that picking the same file again is a change.
        event.currentTarget.value = '';
        if (files.length) onFiles(files);
      }}
    />
  );
}
