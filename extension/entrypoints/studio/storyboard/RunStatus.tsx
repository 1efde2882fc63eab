import { t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { shotProgress } from '@/lib/studio/run-plan';
import '@/lib/i18n/studio.en';

/** Why a run stopped at its shot, in words: the service's message when there is one. */
function reasonText(failure: NonNullable<NonNullable<StoryboardRecord['run']>['failure']>): string {
  if (failure.message) return failure.message;
  if (failure.reason === 'take-failed' || failure.reason === 'take-cancelled') return t(`studio.run.reason.${failure.reason}`);
  return t('studio.run.reason.halted');
}

/** One line on where the storyboard's latest run stands (each shot's own state is in the shot list). */
export function RunStatus({ board, tasks }: { board: StoryboardRecord; tasks: ReadonlyMap<string, TaskRecord> }) {
  const run = board.run;
  if (!run) return null;
  let text: string;
  if (run.state === 'running') {
    const inRun = board.shots.filter((s) => s.queued || run.takes[s.id]);
    const done = inRun.filter((s) => !s.queued && shotProgress(s, tasks) === 'completed').length;
    text = t('studio.run.state.running', { done, count: inRun.length });
  } else if (run.state === 'completed') {
    text = t('studio.run.state.completed', { count: Object.keys(run.takes).length });
  } else if (run.state === 'failed' && run.failure) {
    const n = board.shots.findIndex((s) => s.id === run.failure!.shotId) + 1;
    text = t('studio.run.state.failed', { n, reason: reasonText(run.failure) });
  } else {
    text = t('studio.run.state.stopped');
  }
  return (
    <p class={run.state === 'failed' ? 'gen-error' : 'studio-muted'} role="status" data-testid="run-status" data-state={run.state}>
      {text}
    </p>
  );
}
