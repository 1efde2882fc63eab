import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { modelSpec } from '@@/shared';
import { Banner } from '@/components/Banner';
import { StillVideo } from '@/components/StillVideo';
import { WaitingForService } from '@/components/WaitingForService';
import { t } from '@/lib/i18n/translate';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { useDb } from '@/lib/popup/use-db';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import {
  costLabel,
  describeParam,
  downloadName,
  elapsedMs,
  formatElapsed,
  formatKeptDate,
  humanize,
  isNamed,
  isSettled,
  keepNote,
  keptVideo,
  linkHoursLeft,
  namedParam,
  progressValue,
  refusalNote,
  requestSummary,
  statusLabel,
  statusTone,
  videoAddress,
} from '@/lib/tasks/task-presentation';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { readTasks, refreshTasks } from '@/lib/tasks/task-refresh';
import { taskSubject } from '@/lib/tasks/task-stills';
import { submitAgain, type SubmittingTask } from '@/lib/tasks/task-submit';
import '@/entrypoints/popup/tasks/tasks.css';
import { Publish } from '@/entrypoints/popup/tasks/Publish';
import { useFirstPaintMark } from '@/lib/popup/first-paint';
import { assetStore } from '@/lib/storage/asset-store';
import '@/lib/i18n/tasks.en';
import { TaskProblem } from '@/components/TaskProblem';

export const POLL_MS = 3_000;

/** Library asset id -> name, so a request reads "Cat photo" rather than "asset://…". */
const AssetNames = createContext<ReadonlyMap<string, string>>(new Map());

async function readAssetNames(): Promise<ReadonlyMap<string, string>> {
  const assets = await assetStore.all();
  return new Map(assets.flatMap((a) => (a.assetId ? [[a.assetId, a.name] as const] : [])));
}
const PAGE = 30;

type Sync = { state: 'idle' } | { state: 'offline' } | { state: 'waiting'; seconds: number } | { state: 'failed'; message: string };

interface TasksViewProps {
  /** How often open tasks are queried while the view is shown. */
  pollMs?: number;
}

/**
 * The Tasks tab: every task, newest first, from IndexedDB. While it is shown, unfinished tasks are
 * queried every few seconds (and unanswered creates repeated with their keys); when the popup is
 * closed the background does it.
 */
export function TasksView({ pollMs = POLL_MS }: TasksViewProps) {
  const tasks = useDb(readTasks, ['tasks']);
  const assetNames = useDb(readAssetNames, ['assets']);
  useFirstPaintMark(tasks !== undefined);
  const [now, setNow] = useState(() => Date.now());
  const [sync, setSync] = useState<Sync>({ state: 'idle' });
  const [limit, setLimit] = useState(PAGE);
  const active = (tasks ?? []).some((task) => !isSettled(task.status));

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      let delay = pollMs;
      const connected = await connectedClient();
      if (stopped || !connected) return;
      try {
        await refreshTasks(connected.client);
        setSync({ state: 'idle' });
      } catch (error) {
        if (await handleUnauthorized(error)) return;
        if (!(error instanceof ApiError)) setSync({ state: 'failed', message: String(error) });
        else if (error.failure.kind === 'network') setSync({ state: 'offline' });
        else if (error.failure.kind === 'rate_limited') {
          delay = Math.max(pollMs, error.failure.retryAfterMs);
          setSync({ state: 'waiting', seconds: Math.ceil(delay / 1000) });
        } else setSync({ state: 'failed', message: error.failure.message });
      }
      if (!stopped) timer = setTimeout(() => void tick(), delay);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pollMs]);

  useEffect(() => {
    if (!active) return;
    const clock = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(clock);
  }, [active]);

  if (!tasks) return <p aria-busy="true">{t('tasks.loading')}</p>;
  return (
    <div class="tasks">
      {sync.state === 'offline' && <Banner tone="warning">{t('tasks.offline')}</Banner>}
      {sync.state === 'waiting' && <Banner tone="warning">{t('tasks.rateLimited', { seconds: sync.seconds })}</Banner>}
      {sync.state === 'failed' && <Banner tone="warning">{t('tasks.syncFailed', { message: sync.message })}</Banner>}
      {tasks.length === 0 ? (
        <p class="tasks-empty">{t('tasks.empty')}</p>
      ) : (
        <AssetNames.Provider value={assetNames ?? new Map()}>
          <ol class="task-list" aria-label={t('tasks.listLabel')}>
            {tasks.slice(0, limit).map((task) => (
              <TaskItem key={task.localId} task={task} now={now} />
            ))}
          </ol>
        </AssetNames.Provider>
      )}
      {tasks.length > limit && (
        <button type="button" onClick={() => setLimit(limit + PAGE)}>
          {t('tasks.showOlder', { count: tasks.length - limit })}
        </button>
      )}
    </div>
  );
}

function TaskItem({ task, now }: { task: SubmittingTask; now: number }) {
  const spec = modelSpec(task.model);
  const elapsed = elapsedMs(task, now);
  const progress = progressValue(task);
  const prompt = task.body.prompt ?? task.body.content?.find((e) => e.type === 'text')?.text ?? '';
  const named = task.status === 'failed' && task.error ? namedParam(task.error.message) : null;
  const titleId = `task-${task.localId}-title`;
  const cost = costLabel(task);

  return (
    <li class={`task task--${task.status}`} aria-labelledby={titleId}>
      <div class="task__head">
        <strong id={titleId}>{spec.label}</strong>
        <span class={`task__status task__status--${statusTone(task.status)}`}>{statusLabel(task)}</span>
        {elapsed !== null && <span class="task__elapsed" title={t('tasks.elapsedTitle')}>{formatElapsed(elapsed)}</span>}
        {cost !== null && (
          <span class="task__cost" title={t('tasks.costTitle')}>
            {cost}
          </span>
        )}
      </div>
      {prompt && <p class="task__prompt">{prompt}</p>}
      {!isSettled(task.status) && (
        <progress class="task__progress" max={100} {...(progress === null ? {} : { value: progress })} aria-label={statusLabel(task)} />
      )}
      {task.status === 'submitting' && task.notice && <p class="task__note">{t('tasks.retrying', { message: task.notice })}</p>}
      {task.status === 'waiting' && <WaitingForService task={task} />}
      {task.status === 'cancelled' && <p class="task__note">{t('tasks.cancelledNote')}</p>}
      {task.status === 'unknown' && <p class="task__note">{t('tasks.unknownNote')}</p>}
      {task.tracking === 'expired' && <p class="task__note">{t('tasks.trackingExpired')}</p>}
      {task.status === 'completed' && <Completed task={task} now={now} />}
      {task.status === 'failed' && <Failed task={task} named={named} />}
      {task.status !== 'failed' && <Summary task={task} named={null} />}
    </li>
  );
}

function Completed({ task, now }: { task: TaskRecord; now: number }) {
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // The proxy's kept copy when there is one (the service's link dies about 24 hours after completion).
  const kept = keptVideo(task, now);
  const url = videoAddress(task, now);
  const keep = kept ? null : keepNote(task);
  if (!url) return <p class="task__note">{keep ?? t('tasks.noUrl')}</p>;
  const hours = linkHoursLeft(task, now);

  async function download() {
    try {
      await browser.downloads.download({ url: url!, filename: downloadName(task) });
      setMessage({ tone: 'success', text: t('tasks.downloadStarted') });
    } catch (error) {
      setMessage({ tone: 'error', text: t('tasks.downloadFailed', { message: error instanceof Error ? error.message : String(error) }) });
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(url!);
      setMessage({ tone: 'success', text: t('tasks.copied') });
    } catch (error) {
      setMessage({ tone: 'error', text: t('tasks.copyFailed', { message: error instanceof Error ? error.message : String(error) }) });
    }
  }

  return (
    <div class="task__result">
      <StillVideo subject={taskSubject(task, now) ?? { key: task.localId, url }} class="task__video" label={t('tasks.player')} />
      <div class="task__actions">
        <button type="button" class="primary" onClick={() => void download()}>
          {t('tasks.download')}
        </button>
        <button type="button" onClick={() => void copy()}>
          {t('tasks.copyLink')}
        </button>
      </div>
      {kept ? (
        <p class="task__note task__kept" title={t('tasks.keptTitle')}>
          {t('tasks.keptUntil', { date: formatKeptDate(kept.until) })}
        </p>
      ) : (
        <>
          {keep && <p class={`task__note task__keep task__keep--${task.keep}`}>{keep}</p>}
          <p class="task__note">{hours === null ? t('tasks.expiry') : hours > 0 ? t('tasks.expiresIn', { hours }) : t('tasks.expired')}</p>
        </>
      )}
      {message && (
        <p class={`task__message task__message--${message.tone}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <Publish task={task} />
    </div>
  );
}

function Failed({ task, named }: { task: TaskRecord; named: string | null }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const spec = modelSpec(task.model);
  const name = named ? describeParam(named, task.body) : null;
  const worded = refusalNote(task.error) ?? (task.error ? humanize(task.error.message, task.body, spec) : t('tasks.failedNoMessage'));
  // 'Reference image 2: download failed' under 'Problem with Reference image 2:' says it once.
  const message = name && worded.startsWith(`${name}: `) ? worded.slice(name.length + 2) : worded;

  async function again() {
    setBusy(true);
    setProblem(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected().message);
      const outcome = await submitAgain(connected.client, task);
      void tellBackground({ type: 'arkbridge:sync' });
      setConfirming(false);
      if (outcome.record.status === 'failed') setProblem(t('tasks.againRefused'));
    } catch (error) {
      if (await handleUnauthorized(error)) return;
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="task__failure">
      <p class="task__error">
        {name && <strong>{t('tasks.errorAt', { name })} </strong>}
        {message}
      </p>
      <Summary task={task} named={named} open={Boolean(named)} />
      {confirming ? (
        <div class="task__confirm" role="group" aria-label={t('tasks.againTitle')}>
          <p>{t('tasks.againConfirm')}</p>
          <button type="button" class="primary" disabled={busy} onClick={() => void again()}>
            {t('tasks.againYes')}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          {t('tasks.again')}
        </button>
      )}
      <TaskProblem problem={problem} />
    </div>
  );
}

/** The request in the member's words; the part an error names is highlighted. */
function Summary({ task, named, open = false }: { task: TaskRecord; named: string | null; open?: boolean }) {
  const lines = requestSummary(task.body, useContext(AssetNames));
  return (
    <details class="task__summary" open={open}>
      <summary>{t('tasks.request')}</summary>
      <dl>
        {lines.map((line) => {
          const hit = isNamed(line, named);
          return (
            <div key={line.param} class={hit ? 'task__line task__line--named' : 'task__line'} aria-current={hit ? 'true' : undefined}>
              <dt>
                {line.label}
                {hit && <span class="task__flag"> {t('tasks.named')}</span>}
              </dt>
              <dd>{line.value}</dd>
            </div>
          );
        })}
      </dl>
    </details>
  );
}
