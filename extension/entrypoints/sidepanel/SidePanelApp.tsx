import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ConnectFirst } from '@/components/ConnectFirst';
import { deferred, Later } from '@/entrypoints/popup/deferred';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { PageMediaView } from '@/entrypoints/sidepanel/PageMediaView';
import { type MessageKey, t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { getConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/sidepanel.en';

type PanelTab = 'page' | 'library' | 'tasks' | 'team';
const TABS: { id: PanelTab; label: MessageKey }[] = [
  { id: 'page', label: 'sidepanel.tabs.page' },
  { id: 'library', label: 'app.tabs.library' },
  { id: 'tasks', label: 'app.tabs.tasks' },
  { id: 'team', label: 'app.tabs.team' },
];

// The popup's own views. Library is imported as the popup does (at once): the modules both pages load
// up front then form one shared chunk, where a lazy Library here would split the popup's first paint
// into many small files (gzip compresses each alone: 2 KB more over the popup's budget). Tasks is lazy in both.
const tasksView = deferred(() => import('@/entrypoints/popup/tasks/TasksView'));
const teamView = deferred(() => import('@/entrypoints/popup/team/TeamView'));

/** The side panel: "This page" (media of the followed tab), and the popup's Library, Tasks and Team. */
export function SidePanelApp({ fixedTabId }: { fixedTabId?: number }) {
  const connection = useDb(getConnection, ['settings']);
  const [tab, setTab] = useState<PanelTab>('page');
  /** An asset to open in the Library tab (the member chose "Open the existing one" before a save). */
  const [openAsset, setOpenAsset] = useState<string | undefined>(undefined);
  if (connection === undefined) return <main class="panel" aria-busy="true" />;
  if (!connection || connection.needsReconnect) return <ConnectFirst class="panel" reconnect={Boolean(connection)} />;
  const onKey = (event: KeyboardEvent) => {
    // Arrow keys move between tabs, as in a tablist.
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(TABS.findIndex((x) => x.id === tab) + step + TABS.length) % TABS.length]!.id;
    setOpenAsset(undefined);
    setTab(next);
    document.getElementById(`ptab-${next}`)?.focus();
  };
  return (
    <main class="panel">
      <header class="panel-header">
        <h1>{t('app.title')}</h1>
        <span class="member">
          {t('app.connectedAs', { name: connection.memberName ?? '' })}
          <button type="button" class="link" data-testid="open-studio" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/studio.html') })}>
            {t('app.openStudio')}
          </button>
        </span>
      </header>
      <nav role="tablist" aria-label={t('app.title')} onKeyDown={onKey}>
        {TABS.map(({ id, label }) => (
          <button key={id} type="button" role="tab" id={`ptab-${id}`} aria-selected={tab === id} aria-controls={`ppanel-${id}`} tabIndex={tab === id ? 0 : -1} onClick={() => {
              setOpenAsset(undefined);
              setTab(id);
            }}>
            {t(label)}
          </button>
        ))}
      </nav>
      <section role="tabpanel" id={`ppanel-${tab}`} aria-labelledby={`ptab-${tab}`}>
        {tab === 'page' && (
          <PageMediaView
            fixedTabId={fixedTabId}
            onOpenAsset={(localId) => {
              setOpenAsset(localId);
              setTab('library');
            }}
          />
        )}
        {tab === 'library' && <LibraryView openAsset={openAsset} />}
        {tab === 'tasks' && <Later part={tasksView}>{({ TasksView }) => <TasksView />}</Later>}
        {/* No Generate here: "Reuse these settings" fills the popup's form and says so. */}
        {tab === 'team' && <Later part={teamView}>{({ TeamView }) => <TeamView />}</Later>}
      </section>
    </main>
  );
}
