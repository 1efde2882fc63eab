import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { Banner } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/background.en';
import '@/lib/i18n/sidepanel.en';

/**
 * Why the page cannot be read, and what to do: the page menu item (it grants activeTab for the tab),
 * or, when the browser told the tab's origin, access to that origin only, asked from the click
 * itself (browsers grant a permission only during a gesture), then the page is read.
 */
export function AccessPrompt({ reason, origin, onGranted }: { reason: 'no-access' | 'restricted'; origin?: string; onGranted: () => void }) {
  const [refused, setRefused] = useState(false);
  if (reason === 'restricted') return <Banner tone="error"><p>{t('sidepanel.access.restricted')}</p></Banner>;
  const allow = () => {
    // No await before the request: it must run within the click.
    void browser.permissions.request({ origins: [`${origin}/*`] }).then(
      (granted) => (granted ? onGranted() : setRefused(true)),
      () => setRefused(true),
    );
  };
  return (
    <Banner tone="warning">
      <p>{t('sidepanel.access.needed')}</p>
      <p>{t('sidepanel.access.menuHint', { menu: t('menu.pageMedia') })}</p>
      {origin && (
        <button type="button" onClick={allow}>
          {t('sidepanel.access.allow', { origin })}
        </button>
      )}
      {refused && <p role="alert">{t('sidepanel.access.refused')}</p>}
    </Banner>
  );
}
