import { useState } from 'preact/hooks';
import { ConnectFirst } from '@/components/ConnectFirst';
import { deferred, Later, useDeferred } from '@/entrypoints/popup/deferred';
import type { Handoff, StudioTab } from '@/entrypoints/studio/handoff';
import { type MessageKey, t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { getConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/studio.en';

const TABS: { id: StudioTab; label: MessageKey }[] = [
  { id: 'storyboard', label: 'studio.tabs.storyboard' },
  { id: 'batch', label: 'studio.tabs.batch' },
  { id: 'compare', label: 'studio.tabs.compare' },
  { id: 'history', label: 'studio.tabs.history' },
];
const TAB_KEY = 'arkbridge.studio.tab';

// The shell is the first paint; each view (with the Generate form's rules, players, the export) is a
// chunk loaded when first shown, or pointed at. The engine (following tasks, stepping runs) too.
const views = {
  storyboard: deferred(() => import('@/entrypoints/studio/storyboard/StoryboardView')),
  batch: deferred(() => import('@/entrypoints/studio/batch/BatchView')),
  compare: deferred(() => import('@/entrypoints/studio/compare/CompareView')),
  history: deferred(() => import('@/entrypoints/studio/history/HistoryView')),
};
const engine = deferred(() => import('@/entrypoints/studio/StudioEngine'));
const preload = (id: StudioTab) => void views[id].load().catch(() => {});

/** The studio page: storyboards, batches, comparing takes and the history of every task. */
export function StudioApp() {
  const connection = useDb(getConnection, ['settings']);
  const [tab, setTab] = useState<StudioTab>(() => {
    const saved = localStorage.getItem(TAB_KEY) as StudioTab | null;
    return saved && saved in views ? saved : 'storyboard';
  });
  const [handoff, setHandoff] = useState<Handoff | null>(null);
  const { module: running } = useDeferred(engine, Boolean(connection && !connection.needsReconnect));
  const choose = (next: StudioTab) => {
    localStorage.setItem(TAB_KEY, next);
    setTab(next);
  };
  /** "Reuse these settings": the form goes to the storyboard or the batch, which opens. */
  const hand = (next: Handoff) => {
    setHandoff(next);
    choose(next.target);
  };
  const taken = () => setHandoff(null);

  if (connection === undefined) return <main class="studio" aria-busy="true" />;
  if (!connection || connection.needsReconnect) return <ConnectFirst class="studio" reconnect={Boolean(connection)} />;
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(TABS.findIndex((x) => x.id === tab) + step + TABS.length) % TABS.length]!.id;
    choose(next);
    document.getElementById(`stab-${next}`)?.focus();
  };
  return (
    <main class="studio">
      <header class="studio-header">
        <h1>{t('studio.title')}</h1>
        <span class="member">{t('app.connectedAs', { name: connection.memberName ?? '' })}</span>
      </header>
      <nav role="tablist" aria-label={t('studio.nav')} onKeyDown={onKey}>
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`stab-${id}`}
            data-testid={`studio-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`spanel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => choose(id)}
            onPointerEnter={() => preload(id)}
            onFocus={() => preload(id)}
          >
            {t(label)}
          </button>
        ))}
      </nav>
      <section role="tabpanel" id={`spanel-${tab}`} aria-labelledby={`stab-${tab}`} class="studio-panel">
        {tab === 'storyboard' && <Later part={views.storyboard}>{({ StoryboardView }) => <StoryboardView handoff={handoff?.target === 'storyboard' ? handoff : null} onHandoffTaken={taken} />}</Later>}
        {tab === 'batch' && <Later part={views.batch}>{({ BatchView }) => <BatchView handoff={handoff?.target === 'batch' ? handoff : null} onHandoffTaken={taken} />}</Later>}
        {tab === 'compare' && <Later part={views.compare}>{({ CompareView }) => <CompareView />}</Later>}
        {tab === 'history' && <Later part={views.history}>{({ HistoryView }) => <HistoryView onReuse={hand} onStart={() => choose('storyboard')} />}</Later>}
      </section>
      {running && <running.StudioEngine />}
    </main>
  );
}
