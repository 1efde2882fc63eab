import { useEffect, useState } from 'preact/hooks';
import { Banner, type BannerTone } from '@/components/Banner';
import { BrowsersPanel } from '@/entrypoints/options/BrowsersPanel';
import { ConnectForm } from '@/entrypoints/options/ConnectForm';
import { ConnectionState } from '@/entrypoints/options/ConnectionState';
import { GroupsPanel } from '@/entrypoints/options/GroupsPanel';
import { ShortcutsPanel } from '@/entrypoints/options/ShortcutsPanel';
import { forgetConnection } from '@/lib/connect/connect-check';
import { DEFAULT_PROXY_URL } from '@/lib/connect/default-proxy-url';
import { releaseHostAccess } from '@/lib/connect/host-access';
import { t } from '@/lib/i18n/translate';
import { refreshGroups } from '@/lib/library/group-actions';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { CONNECT_WORDING, describeFailure, notConnected } from '@/lib/proxy/failure-message';
import { groupStore } from '@/lib/storage/group-store';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { Connection } from '@/lib/storage/records/setting-values';
import { getConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/options.en';

type Note = { tone: BannerTone; text: string };

/** The options page: connection to the team's proxy, the default group and the keyboard shortcut. */
export function App() {
  const [loaded, setLoaded] = useState(false);
  const [connection, setConnectionState] = useState<Connection | null>(null);
  const [formKey, setFormKey] = useState(0);
  /** The proxy URL to show after a disconnect (the last one used). */
  const [lastProxyUrl, setLastProxyUrl] = useState<string | null>(null);
  const [groups, setGroups] = useState<GroupRecord[]>([]);
  const [defaultGroupId, setDefaultGroupIdState] = useState<string | null>(null);
  const [groupsBusy, setGroupsBusy] = useState(false);
  const [groupsNote, setGroupsNote] = useState<Note | null>(null);
  const [pageNote, setPageNote] = useState<Note | null>(null);

  useEffect(() => {
    void (async () => {
      try {
        const [stored, knownGroups, defaultId] = await Promise.all([getConnection(), groupStore.all(), groupStore.defaultId()]);
        setConnectionState(stored);
        setGroups(knownGroups);
        setDefaultGroupIdState(defaultId);
      } catch (error) {
        setPageNote({ tone: 'error', text: t('options.storageFailed', { message: error instanceof Error ? error.message : String(error) }) });
      } finally {
        setLoaded(true);
      }
    })();
  }, []);

  /** Lists the member's groups through the proxy into IndexedDB; false if that failed. */
  async function loadGroups(current: Connection): Promise<boolean> {
    setGroupsBusy(true);
    setGroupsNote(null);
    try {
      const connected = await connectedClient();
      if (!connected) {
        setGroupsNote({ tone: 'error', text: t('options.groups.refreshFailed', { message: notConnected().message }) });
        return false;
      }
      const list = await refreshGroups(connected.client);
      setGroups(list);
      setDefaultGroupIdState(await groupStore.defaultId());
      setGroupsNote({ tone: 'success', text: t('options.groups.loaded', { count: list.length }) });
      return true;
    } catch (error) {
      const { message } = describeFailure(error, { wording: CONNECT_WORDING, proxyUrl: current.proxyUrl });
      if (await handleUnauthorized(error)) setConnectionState({ ...current, needsReconnect: true });
      setGroupsNote({ tone: 'error', text: t('options.groups.refreshFailed', { message }) });
      return false;
    } finally {
      setGroupsBusy(false);
    }
  }

  async function onConnected(next: Connection) {
    setPageNote(null);
    setConnectionState(next);
    await loadGroups(next);
    await tellBackground({ type: 'arkbridge:connected' });
  }

  async function onRefresh() {
    if (!connection) return;
    if (await loadGroups(connection)) await tellBackground({ type: 'arkbridge:groups-changed' });
  }

  async function onDefaultChange(id: string | null) {
    setDefaultGroupIdState(id);
    await groupStore.setDefaultId(id);
    setGroupsNote({ tone: 'success', text: id ? t('options.groups.defaultSet', { name: groups.find((g) => g.id === id)?.name ?? id }) : t('options.groups.defaultAutomatic') });
    await tellBackground({ type: 'arkbridge:groups-changed' });
  }

  async function onDisconnect() {
    if (!connection) return;
    const previous = connection;
    await forgetConnection();
    setConnectionState(null);
    setLastProxyUrl(previous.proxyUrl);
    setFormKey((k) => k + 1); // clears the token field
    setGroupsNote(null);
    setPageNote({ tone: 'info', text: t('options.disconnected', { url: previous.proxyUrl }) });
    await releaseHostAccess(previous.proxyUrl);
    await tellBackground({ type: 'arkbridge:disconnected' });
  }

  if (!loaded) {
    return (
      <main aria-busy="true">
        <h1>{t('options.title')}</h1>
        <p>{t('options.loading')}</p>
      </main>
    );
  }

  return (
    <main>
      <h1>{t('options.title')}</h1>
      <p class="lead">{t('options.lead')}</p>
      {pageNote && (
        <Banner tone={pageNote.tone} id="page-note">
          <p>{pageNote.text}</p>
        </Banner>
      )}
      <section aria-labelledby="connection-heading">
        <h2 id="connection-heading">{t('options.connection.heading')}</h2>
        <ConnectionState connection={connection} />
        <ConnectForm
          key={formKey}
          initialProxyUrl={connection?.proxyUrl ?? lastProxyUrl ?? DEFAULT_PROXY_URL}
          initialToken={connection?.token ?? ''}
          askSigninOnOpen={!connection || connection.needsReconnect}
          onConnected={onConnected}
        />
        {connection && (
          <div class="actions">
            <button type="button" onClick={() => void onDisconnect()}>
              {t('options.disconnect')}
            </button>
          </div>
        )}
      </section>
      {connection && (
        <GroupsPanel
          groups={groups}
          defaultGroupId={defaultGroupId}
          busy={groupsBusy}
          canRefresh={!connection.needsReconnect}
          note={groupsNote}
          onDefaultChange={(id) => void onDefaultChange(id)}
          onRefresh={() => void onRefresh()}
        />
      )}
      {connection && !connection.needsReconnect && <BrowsersPanel key={connection.token} onRefused={() => setConnectionState({ ...connection, needsReconnect: true })} />}
      <ShortcutsPanel groups={groups} />
    </main>
  );
}
