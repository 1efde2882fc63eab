import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ConnectFirst } from '@/components/ConnectFirst';
import { BudgetLine } from '@/entrypoints/popup/budget/BudgetLine';
import { type Deferred, deferred, Later } from '@/entrypoints/popup/deferred';
import { LibraryView } from '@/entrypoints/popup/library/LibraryView';
import { type MessageKey, t } from '@/lib/i18n/translate';
import { takeNextTab } from '@/lib/messaging/next-tab';
import { useDb } from '@/lib/popup/use-db';
import type { PopupTab } from '@/lib/storage/records/setting-values';
import { getConnection } from '@/lib/storage/stored-connection';

export type Tab = PopupTab;
const TABS: { id: Tab; label: MessageKey }[] = [
  { id: 'library', label: 'app.tabs.library' },
  { id: 'generate', label: 'app.tabs.generate' },
  { id: 'tasks', label: 'app.tabs.tasks' },
  { id: 'portrait', label: 'app.tabs.portrait' },
  { id: 'team', label: 'app.tabs.team' },
];
const TAB_KEY = 'arkbridge.popup.tab';

// The Library tab is part of the first paint; the other views are chunks loaded when first shown
// (or pointed at: a tab starts loading its view on hover or focus).
const generateView = deferred(() => import('@/entrypoints/popup/generate/GenerateView'));
const tasksView = deferred(() => import('@/entrypoints/popup/tasks/TasksView'));
const portraitView = deferred(() => import('@/entrypoints/popup/portrait/PortraitView'));
const teamView = deferred(() => import('@/entrypoints/popup/team/TeamView'));
const VIEWS: Partial<Record<Tab, Deferred<unknown>>> = { generate: generateView, tasks: tasksView, portrait: portraitView, team: teamView };
const preload = (id: Tab) => void VIEWS[id]?.load().catch(() => {});

/** The popup: a connection line, then one of five views. */
export function App() {
  const connection = useDb(getConnection, ['settings']);
  const [tab, setTab] = useState<Tab>(() => (localStorage.getItem(TAB_KEY) as Tab | null) ?? 'library');
  const choose = (next: Tab) => {
    localStorage.setItem(TAB_KEY, next);
    setTab(next);
  };
  // Opened from a notification: show what it was about.
  useEffect(() => void takeNextTab().then((next) => next && choose(next)), []);

  // The title while the connection is read (IndexedDB): the first contentful paint needs no database.
  if (connection === undefined)
    return (
      <main class="app" aria-busy="true">
        <header class="app-header">
          <h1>{t('app.title')}</h1>
        </header>
      </main>
    );
  if (!connection || connection.needsReconnect) return <ConnectFirst class="app" reconnect={Boolean(connection)} />;
  return (
    <main class="app">
      <header class="app-header">
        <h1>{t('app.title')}</h1>
        <span class="member">
          {t('app.connectedAs', { name: connection.memberName ?? '' })}
          <button type="button" class="link" onClick={() => void browser.runtime.openOptionsPage()}>
            {t('app.settings')}
          </button>
          <button type="button" class="link" data-testid="open-studio" onClick={() => void browser.tabs.create({ url: browser.runtime.getURL('/studio.html') })}>
            {t('app.openStudio')}
          </button>
        </span>
      </header>
      <BudgetLine />
      <nav role="tablist" aria-label={t('app.title')}>
        {TABS.map(({ id, label }) => (
          <button key={id} type="button" role="tab" id={`tab-${id}`} aria-selected={tab === id} aria-controls={`panel-${id}`} onClick={() => choose(id)} onPointerEnter={() => preload(id)} onFocus={() => preload(id)}>
            {t(label)}
          </button>
        ))}
      </nav>
      <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {/* Library is here at once; the other views arrive with their chunks. */}
        {tab === 'library' && <LibraryView onUseInGenerate={() => choose('generate')} />}
        {tab === 'generate' && <Later part={generateView}>{({ GenerateView }) => <GenerateView onSubmitted={() => choose('tasks')} />}</Later>}
        {tab === 'tasks' && <Later part={tasksView}>{({ TasksView }) => <TasksView />}</Later>}
        {tab === 'portrait' && <Later part={portraitView}>{({ PortraitView }) => <PortraitView />}</Later>}
        {tab === 'team' && <Later part={teamView}>{({ TeamView }) => <TeamView onReuse={() => choose('generate')} />}</Later>}
      </section>
    </main>
  );
}
