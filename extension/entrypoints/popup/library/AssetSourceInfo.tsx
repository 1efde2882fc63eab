import { currentLocale, t } from '@/lib/i18n/translate';
import { sourceLines } from '@/lib/library/source-view';
import type { AssetSource } from '@/lib/storage/records/asset-source';

interface AssetSourceInfoProps {
  /** The source, when known; `loading` while a shared asset's is fetched from the proxy. */
  source: AssetSource | undefined | 'loading';
}

/** The asset's provenance in its detail: how and when it was captured, and the page (a link only when http(s)). */
export function AssetSourceInfo({ source }: AssetSourceInfoProps) {
  return (
    <section class="asset-source" aria-labelledby="library-source-title" data-testid="asset-source">
      <h3 id="library-source-title">{t('source.title')}</h3>
      {source === 'loading' ? (
        <p class="muted">{t('source.loading')}</p>
      ) : !source ? (
        <p class="muted">{t('source.none')}</p>
      ) : (
        <SourceText source={source} />
      )}
    </section>
  );
}

function SourceText({ source }: { source: AssetSource }) {
  const lines = sourceLines(source);
  const when = new Date(lines.capturedAt).toLocaleString(currentLocale());
  return (
    <>
      <p>
        {t(`source.how.${lines.how}`)} · {t('source.capturedAt', { date: when })}
      </p>
      {lines.page && (
        <p class="asset-source__page">
          {t('source.page')}
          {lines.page.href ? (
            <a href={lines.page.href} target="_blank" rel="noopener noreferrer" title={lines.page.href}>
              {lines.page.text}
            </a>
          ) : (
            <span>{lines.page.text}</span>
          )}
        </p>
      )}
    </>
  );
}
