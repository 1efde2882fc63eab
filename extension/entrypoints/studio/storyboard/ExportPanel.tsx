import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { Banner } from '@/components/Banner';
import { type MessageKey, t } from '@/lib/i18n/translate';
import { readKeptCopy } from '@/lib/poll/task-polling';
import { connectedClient } from '@/lib/proxy/connected-client';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { takesAwaitingCopy, withKeptCopies } from '@/lib/studio/export-clips';
import type { NamedSize } from '@/lib/studio/export-sizes';
import { boardTasks } from '@/lib/studio/run-driver';
import { type ExportOutcome, exportStoryboard, loadJoin } from '@/lib/studio/storyboard-export';
import '@/lib/i18n/studio.en';

type State =
  | { state: 'idle' }
  | { state: 'running'; fraction: number }
  | { state: 'done'; outcome: ExportOutcome }
  | { state: 'error'; message: string }
  | { state: 'remaking'; shotNumber: number; size: NamedSize };

/** Makes a shot again at a size: the action, or null when the shot's model cannot make that size. */
export type MakeAgain = (shotId: string, size: NamedSize) => (() => Promise<void>) | null;

const sizeText = (size: NamedSize) => t('studio.export.size', { ...size });

/** The file name of a storyboard's export: its name, kept to safe characters. */
const fileName = (name: string) => `${name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'storyboard'}.mp4`;

/** Saves the joined file: through the browser's downloads (the extension has the permission), else an `<a download>`. */
async function download(blob: Blob, name: string): Promise<void> {
  const url = URL.createObjectURL(blob);
  try {
    if (browser.downloads?.download) {
      await browser.downloads.download({ url, filename: name, saveAs: false });
    } else {
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      document.body.append(link);
      link.click();
      link.remove();
    }
  } finally {
    // The download has the bytes once it started; the address is freed a little later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/** The takes with their kept copies, read again where the proxy may have made one since (export-clips). */
async function keptCopies(board: StoryboardRecord, tasks: ReadonlyMap<string, TaskRecord>): Promise<ReadonlyMap<string, TaskRecord>> {
  if (!takesAwaitingCopy(board, tasks, Date.now()).length) return tasks;
  const connected = await connectedClient().catch(() => null);
  if (!connected) return tasks;
  return withKeptCopies(board, tasks, (task) => readKeptCopy(connected.client, task), () => new Promise((resolve) => setTimeout(resolve, 1_000)));
}

/**
 * The storyboard and its takes as stored when the export starts. The view's copies are read after
 * each change and lag behind the store: just after the studio or its Storyboard tab opened they are
 * still empty, and a take that has just completed is not in them yet. What the store holds wins; the
 * view's copy stands only for a take the store does not hold.
 */
async function storedBoard(board: StoryboardRecord, tasks: ReadonlyMap<string, TaskRecord>): Promise<{ board: StoryboardRecord; tasks: ReadonlyMap<string, TaskRecord> }> {
  const stored = (await storyboardStore.get(board.id)) ?? board;
  return { board: stored, tasks: new Map([...tasks, ...(await boardTasks(stored))]) };
}

/** Words for what went wrong, naming the shot. */
function failure(outcome: Exclude<Extract<ExportOutcome, { ok: false }>, { kind: 'sizes' }>): string {
  switch (outcome.kind) {
    case 'missing':
      return t('studio.export.missing', { count: outcome.shots.length, shots: outcome.shots.join(', ') });
    case 'fetch':
      return t('studio.export.fetch', { n: outcome.shotNumber, message: outcome.message });
    case 'join': {
      const key = `studio.export.reason.${outcome.reason}` as MessageKey;
      const reason = t(key) === key ? t('studio.export.reason.other', { message: outcome.message }) : t(key);
      return outcome.shotNumber === null ? t('studio.export.joinFailedNoShot', { reason }) : t('studio.export.joinFailed', { n: outcome.shotNumber, reason });
    }
  }
}

/** Takes of different sizes: the storyboard's size, each odd shot with its own, and a way to make it again at the storyboard's. */
function SizesProblem({ outcome, makeAgain, onRemake }: { outcome: Extract<ExportOutcome, { kind: 'sizes' }>; makeAgain: MakeAgain; onRemake: (shotNumber: number, size: NamedSize) => void }) {
  const size = sizeText(outcome.size);
  return (
    <Banner tone="error">
      <p>{t('studio.export.sizes', { size })}</p>
      <ul data-testid="export-odd-shots">
        {outcome.odd.map((shot) => {
          const action = makeAgain(shot.shotId, outcome.size);
          return (
            <li key={shot.shotId}>
              {t('studio.export.oddShot', { n: shot.shotNumber, size: sizeText(shot.size) })}{' '}
              {action ? (
                <button type="button" data-testid={`make-again-${shot.shotNumber}`} onClick={() => void action().then(() => onRemake(shot.shotNumber, outcome.size))}>
                  {t('studio.export.makeAgain', { size })}
                </button>
              ) : (
                t('studio.export.cannotMake', { size })
              )}
            </li>
          );
        })}
      </ul>
    </Banner>
  );
}

interface ExportPanelProps {
  board: StoryboardRecord;
  tasks: ReadonlyMap<string, TaskRecord>;
  /** The storyboard's "Make again" for a shot of another size (none: no button). */
  makeAgain?: MakeAgain;
}

/** Export: the storyboard's chosen takes (else each shot's latest completed take) as one MP4, with its progress. */
export function ExportPanel({ board, tasks, makeAgain = () => null }: ExportPanelProps) {
  const [state, setState] = useState<State>({ state: 'idle' });
  async function run() {
    setState({ state: 'running', fraction: 0 });
    try {
      const current = await storedBoard(board, tasks);
      const outcome = await exportStoryboard(current.board, await keptCopies(current.board, current.tasks), { fetcher: (input, init) => fetch(input, init), loadJoin, onProgress: (fraction) => setState({ state: 'running', fraction }) });
      if (outcome.ok) await download(outcome.blob, fileName(current.board.name));
      setState({ state: 'done', outcome });
    } catch (error) {
      setState({ state: 'error', message: t('studio.unexpected', { message: error instanceof Error ? error.message : String(error) }) });
    }
  }
  const running = state.state === 'running';
  return (
    <section class="studio-export" aria-labelledby="export-title">
      <h2 id="export-title">{t('studio.export.title')}</h2>
      <p class="studio-muted">{t('studio.export.hint')}</p>
      <button type="button" class="primary" data-testid="export-button" disabled={running || board.shots.length === 0} onClick={() => void run()}>
        {running ? t('studio.export.running') : t('studio.export.button')}
      </button>
      {running && <progress data-testid="export-progress" aria-label={t('studio.export.progress')} max={100} value={Math.round(state.fraction * 100)} />}
      {state.state === 'done' &&
        (state.outcome.ok ? (
          <Banner tone="success">{t('studio.export.done', { duration: Math.round(state.outcome.duration * 10) / 10 })}</Banner>
        ) : state.outcome.kind === 'sizes' ? (
          <SizesProblem outcome={state.outcome} makeAgain={makeAgain} onRemake={(shotNumber, size) => setState({ state: 'remaking', shotNumber, size })} />
        ) : (
          <Banner tone="error">{failure(state.outcome)}</Banner>
        ))}
      {state.state === 'remaking' && <Banner tone="info">{t('studio.export.makingAgain', { n: state.shotNumber, size: sizeText(state.size) })}</Banner>}
      {state.state === 'error' && <Banner tone="error">{state.message}</Banner>}
    </section>
  );
}
