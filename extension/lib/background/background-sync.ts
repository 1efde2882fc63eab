import { browser } from 'wxt/browser';
import { checkPendingPortrait } from '@/lib/background/pending-portrait-check';
import { announceRuns, runsGoing, stepRuns } from '@/lib/background/storyboard-runs';
import { t } from '@/lib/i18n/translate';
import { notify, setBadge } from '@/lib/messaging/notify';
import { FIRST_SYNC_DELAY_MS, setSyncPass, syncSoon } from '@/lib/messaging/sync-soon';
import { pollAssets } from '@/lib/poll/asset-polling';
import { nextKeptCopyRead, pollTasks } from '@/lib/poll/task-polling';
import { readSession } from '@/lib/portrait/portrait-store';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, recordRefusedToken } from '@/lib/proxy/connected-client';
import { drainQueue } from '@/lib/queue/queue-drain';
import { assetStore } from '@/lib/storage/asset-store';
import { groupStore } from '@/lib/storage/group-store';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import { OPEN_TASK_STATUSES, type TaskRecord } from '@/lib/storage/records/task-record';
import { settingsStore } from '@/lib/storage/settings-store';
import { announceChange } from '@/lib/storage/store-changes';
import { taskStore } from '@/lib/storage/task-store';
import { resumeSubmissions } from '@/lib/tasks/task-submit';
import '@/lib/i18n/background.en';

/**
 * One pass of the background engine: send queued creates, bring Processing assets and unfinished
 * tasks up to date, step storyboard runs, tell the member what finished, and schedule the next pass. All state is in
 * IndexedDB, so a pass can start from scratch after the service worker was stopped.
 */

export const ALARM = 'arkbridge-sync';
const MAX_DELAY_MS = 60_000;
/**
 * The alarm a pass sets as it starts: should the service worker end in the middle of it (the browser
 * stops an idle worker, an upload outlasting it), nothing else would start the next pass; the pass
 * that ends sets the real one.
 */
export const PASS_GUARD_MS = 30_000;
/** Pace of the checks of a QR code left by a closed popup (the person is busy on the phone). */
export const PORTRAIT_CHECK_MS = 5_000;

let timer: ReturnType<typeof setTimeout> | undefined;

// syncSoon (lib/messaging/sync-soon) runs this module's pass wherever it is called from.
setSyncPass(syncOnce);

async function syncOnce(): Promise<void> {
  const connected = await connectedClient();
  if (!connected) return stop();
  const { client, connection } = connected;
  await browser.alarms.create(ALARM, { when: Date.now() + PASS_GUARD_MS });
  let changed = false;
  let queueAt: number | null = null;
  let rateLimitedMs: number | null = null;
  try {
    const drained = await drainQueue(client);
    if (drained.unauthorized) return reconnect();
    changed ||= drained.created > 0 || drained.failed.length > 0;
    await announceAssets(drained.failed);
    queueAt = drained.nextAt;
    const assets = await pollAssets(client);
    // Video creates that went unanswered (popup closed, timeout): sent again with the same key.
    const resumed = await resumeSubmissions(client);
    changed ||= resumed.accepted > 0;
    const tasks = await pollTasks(client);
    changed ||= assets.changed.length > 0 || tasks.changed.length > 0;
    await announceAssets(assets.changed.map((a) => a.localId));
    await announceTasks(tasks.changed);
    // Storyboard runs go on here, with no studio open: the next shots launch once theirs have finished.
    // Stepped whatever else changed (`||=` would skip the call).
    const launched = await stepRuns(client, Boolean(connection.allowHttpMedia));
    changed ||= launched > 0;
    await announceRuns();
    changed ||= (await checkPendingPortrait(client)) === 'resolved';
  } catch (error) {
    if (!(error instanceof ApiError)) {
      // Unexpected: the next pass is still set (at the slowest pace), so nothing waiting is left
      // without one; then the error is told as it is.
      await schedule(false, queueAt, MAX_DELAY_MS).catch(() => {});
      throw error;
    }
    if (error.failure.kind === 'unauthorized') return reconnect();
    // Offline, rate-limited or a failing service: keep everything and try later.
    if (error.failure.kind === 'rate_limited') rateLimitedMs = error.failure.retryAfterMs;
  }
  if (changed) announceChange('assets', 'tasks', 'queue');
  await schedule(changed, queueAt, rateLimitedMs);
}

/** Items on their way: queued creates, and what is polled (Processing assets, unfinished tasks). */
async function pending(): Promise<{ queued: number; polled: number }> {
  const [queued, processing, tasks] = await Promise.all([
    assetStore.countWithStatus('Queued'),
    assetStore.countWithStatus('Processing'),
    Promise.all(OPEN_TASK_STATUSES.map((s) => taskStore.countWithStatus(s))),
  ]);
  return { queued, polled: processing + tasks.reduce((a, b) => a + b, 0) };
}

/**
 * Sets the next pass: polling backs off while nothing changes (a change brings the pace back up);
 * queued creates run when their retry time comes; a 429 holds everything for its Retry-After.
 */
async function schedule(changed: boolean, queueAt: number | null, rateLimitedMs: number | null): Promise<void> {
  const { queued, polled } = await pending();
  await setBadge(queued + polled);
  const portrait = await readSession();
  const portraitAt = portrait && portrait.expiresAt > Date.now() ? PORTRAIT_CHECK_MS : Infinity;
  // A run going with nothing to follow (a step cut short) is stepped again, at the polling pace.
  const runGoing = queued + polled === 0 && (await runsGoing());
  // A kept copy being made is read again when due, whatever else is followed.
  const keptAt = await nextKeptCopyRead(Date.now());
  if (queued + polled === 0 && portraitAt === Infinity && !runGoing && keptAt === null) return stop();
  const previous = (await settingsStore.get('syncDelayMs')) ?? FIRST_SYNC_DELAY_MS;
  const pollDelay = changed ? FIRST_SYNC_DELAY_MS : Math.min(previous * 2, MAX_DELAY_MS);
  const candidates = [
    polled > 0 ? pollDelay : Infinity,
    queueAt !== null ? Math.max(0, queueAt - Date.now()) : Infinity,
    portraitAt,
    runGoing ? pollDelay : Infinity,
    keptAt !== null ? keptAt - Date.now() : Infinity,
  ];
  const delay = rateLimitedMs ?? Math.min(...candidates, MAX_DELAY_MS);
  await settingsStore.put('syncDelayMs', pollDelay);
  await browser.alarms.create(ALARM, { when: Date.now() + delay });
  // The alarm survives the service worker; the timer is quicker while it is alive.
  clearTimeout(timer);
  timer = setTimeout(() => void syncSoon(), delay);
}

async function stop(): Promise<void> {
  clearTimeout(timer);
  await browser.alarms.clear(ALARM);
  const { queued, polled } = await pending();
  await setBadge(queued + polled);
}

async function reconnect(): Promise<void> {
  await recordRefusedToken();
  await notify('arkbridge-reconnect', t('notify.reconnect.title'), t('notify.reconnect.message'));
  await stop();
}

async function announceAssets(localIds: string[]): Promise<void> {
  for (const id of localIds) {
    const record = await assetStore.get(id);
    if (!record || record.notified || (record.status !== 'Active' && record.status !== 'Failed')) continue;
    const group = await groupStore.get(record.groupId);
    await notify(`asset-${record.localId}`, ...assetMessage(record, group?.name));
    await assetStore.put({ ...record, notified: true });
  }
}

export const assetMessage = (record: AssetRecord, groupName = t('notify.asset.yourLibrary')): [string, string] =>
  record.status === 'Active'
    ? [t('notify.asset.ready', { name: record.name }), t('notify.asset.readyMessage', { group: groupName })]
    : [t('notify.asset.failed', { name: record.name }), record.error || t('notify.asset.failedMessage')];

async function announceTasks(changed: TaskRecord[]): Promise<void> {
  for (const task of changed) {
    if (task.notified || (task.status !== 'completed' && task.status !== 'failed')) continue;
    await notify(
      `task-${task.localId}`,
      t(task.status === 'completed' ? 'notify.task.ready' : 'notify.task.failed'),
      task.status === 'completed' ? t('notify.task.readyMessage') : task.error?.message ?? t('notify.task.failedMessage'),
    );
    await taskStore.put({ ...task, notified: true });
  }
}
