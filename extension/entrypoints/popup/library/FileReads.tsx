import type { FileRead } from '@/entrypoints/popup/library/use-local-files';
import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';
import '@/entrypoints/popup/library/files.css';

/** Files being read before their items are recorded: "Reading photo.png: 12 MB of 48 MB" and a bar. */
export function FileReads({ reads }: { reads: readonly FileRead[] }) {
  if (!reads.length) return null;
  return (
    <ul class="file-reads">
      {reads.map((r) => {
        const label = t('files.reading', { name: r.name, read: formatSize(r.read), size: formatSize(r.size) });
        return (
          <li key={r.key}>
            <span class="file-reads__text" title={label}>
              {label}
            </span>
            <progress class="file-reads__bar" max={r.size || 1} value={r.read} aria-label={label} />
          </li>
        );
      })}
    </ul>
  );
}
