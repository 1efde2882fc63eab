import { Banner } from '@/components/Banner';
import { Emphasis } from '@/components/Emphasis';
import { t } from '@/lib/i18n/translate';
import type { Connection } from '@/lib/storage/records/setting-values';
import '@/lib/i18n/options.en';

/** Where the extension stands: connected as X, needs reconnect, or not connected. */
export function ConnectionState({ connection }: { connection: Connection | null }) {
  if (!connection) {
    return (
      <Banner tone="info">
        <p>{t('options.state.notConnected')}</p>
      </Banner>
    );
  }
  if (connection.needsReconnect) {
    return (
      <Banner tone="warning">
        <p>
          <strong>{t('options.state.needsReconnect')}</strong> {t('options.state.needsReconnectDetail', { url: connection.proxyUrl })}
        </p>
      </Banner>
    );
  }
  return (
    <Banner tone="success">
      <p>
        <Emphasis message="options.state.connected" params={{ name: connection.memberName ?? t('options.state.someMember'), url: connection.proxyUrl }} strong="name" />
      </p>
    </Banner>
  );
}
