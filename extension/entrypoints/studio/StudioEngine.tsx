import { useEffect, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { useStudioModels } from '@/entrypoints/studio/use-studio-models';
import { t } from '@/lib/i18n/translate';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { onChange } from '@/lib/storage/store-changes';
import { OPEN_TASK_STATUSES } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { refreshTasks } from '@/lib/tasks/task-refresh';
import '@/lib/i18n/studio.en';

/** How often open tasks are checked while the studio is open (the popup's Tasks view does the same). */
export const FOLLOW_MS = 3_000;

const hasOpenTasks = async () => (await Promise.all(OPEN_TASK_STATUSES.map((s) => taskStore.countWithStatus(s)))).some((n) => n > 0);

/**
 * While the studio is open: follows its open tasks (and everyone's, as the popup does). Storyboard
 * runs are the background's (lib/studio/run-driver, on its alarm, studio open or not): when a take
 * of a running run changes here, the background is asked for a pass at once, so that a chained
 * shot launches as soon as the shot before it has its last frame.
 */
export function StudioEngine() {
  // The models loaded (and stored, for the background's runs) before anything is followed.
  const { info } = useStudioModels();
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!info) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const runsGoing = async () => (await storyboardStore.all()).some((b) => b.run?.state === 'running');
    const report = async (error: unknown) => {
      if (!(await handleUnauthorized(error))) setProblem(t('studio.syncFailed', { message: error instanceof ApiError ? error.message : String(error) }));
    };
    // Every FOLLOW_MS: open tasks are checked.
    const tick = async () => {
      try {
        const connected = await connectedClient();
        if (connected && (await hasOpenTasks())) await refreshTasks(connected.client);
        setProblem(null);
      } catch (error) {
        await report(error);
      } finally {
        if (!stopped) timer = setTimeout(() => void tick(), FOLLOW_MS);
      }
    };
    void tick();
    // A task changed while a run goes: the background steps the runs now rather than on its next alarm.
    const stop = onChange((stores) => {
      if (stores.includes('tasks')) void runsGoing().then((going) => (going ? syncSoon() : undefined)).catch(report);
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stop();
    };
  }, [Boolean(info)]);

  return problem ? <Banner tone="warning">{problem}</Banner> : null;
}
