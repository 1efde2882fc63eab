import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n/translate';

/**
 * What the popup and the side panel show before they can be used: not connected yet, or the token
 * was refused (reconnect; nothing is lost). One button opens the options page.
 */
export function ConnectFirst({ reconnect, class: className }: { reconnect: boolean; class: string }) {
  return (
    <main class={className}>
      <h1>{t('app.title')}</h1>
      <p role="alert">{t(reconnect ? 'app.needsReconnect' : 'app.notConnected')}</p>
      <button type="button" onClick={() => void browser.runtime.openOptionsPage()}>
        {t('app.openOptions')}
      </button>
    </main>
  );
}
