import { useEffect, useRef, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { useStudioModels } from '@/entrypoints/studio/use-studio-models';
import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { onChange } from '@/lib/storage/store-changes';
import { OPEN_TASK_STATUSES } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { runPending } from '@/lib/studio/run-plan';
import { advanceRun } from '@/lib/studio/storyboard-runner';
import { refreshTasks } from '@/lib/tasks/task-refresh';
import '@/lib/i18n/studio.en';

/** How often open tasks are checked while the studio is open (the popup's Tasks view does the same). */
export const FOLLOW_MS = 3_000;

const hasOpenTasks = async () => (await Promise.all(OPEN_TASK_STATUSES.map((s) => taskStore.countWithStatus(s)))).some((n) => n > 0);

/**
 * While the studio is open: follows its open tasks (and everyone's, as the popup does), and steps
 * every storyboard run after each change, so that a chained shot is created as soon as the shot
 * before it has its last frame. The background follows tasks too when the studio is closed; a run
 * goes on when the studio is opened again.
 */
export function StudioEngine() {
  const { specOf, allowHttp, info } = useStudioModels();
  const [problem, setProblem] = useState<string | null>(null);
  const deps = useRef({ specOf, allowHttp });
  deps.current = { specOf, allowHttp };

  useEffect(() => {
    if (!info) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stepRuns = async (client: Awaited<ReturnType<typeof connectedClient>>) => {
      if (!client) return;
      for (const board of await storyboardStore.all()) {
        if (runPending(board)) await advanceRun(board.id, { client: client.client, ...deps.current, frameLabel: t('studio.chain.frameLabel') });
      }
    };
    const report = async (error: unknown) => {
      if (!(await handleUnauthorized(error))) setProblem(t('studio.syncFailed', { message: error instanceof ApiError ? error.message : String(error) }));
    };
    // Every FOLLOW_MS: open tasks are checked, then the runs stepped.
    const tick = async () => {
      try {
        const connected = await connectedClient();
        if (connected && (await hasOpenTasks())) await refreshTasks(connected.client);
        await stepRuns(connected);
        setProblem(null);
      } catch (error) {
        await report(error);
      } finally {
        if (!stopped) timer = setTimeout(() => void tick(), FOLLOW_MS);
      }
    };
    void tick();
    // A run started, a task changed (here or in another context): the runs are stepped at once.
    const stop = onChange((stores) => {
      if (stores.includes('storyboards') || stores.includes('tasks')) void connectedClient().then(stepRuns).catch(report);
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stop();
    };
  }, [Boolean(info)]);

  return problem ? <Banner tone="warning">{problem}</Banner> : null;
}
