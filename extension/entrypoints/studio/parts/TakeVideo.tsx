import { StillVideo } from '@/components/StillVideo';
import { WaitingForService } from '@/components/WaitingForService';
import { t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { progressValue, statusLabel } from '@/lib/tasks/task-presentation';
import { taskSubject } from '@/lib/tasks/task-stills';
import '@/lib/i18n/studio.en';
import '@/lib/i18n/tasks.en';

/** A take as it stands: its status and progress, its player with its still once completed (the kept copy first), or why it failed. */
export function TakeVideo({ task, label }: { task: TaskRecord; label: string }) {
  const video = taskSubject(task, Date.now());
  const progress = progressValue(task);
  return (
    <div class="take">
      <p class="take__status">
        {statusLabel(task)}
        {(task.body as { draft?: boolean }).draft === true && <span class="take__badge">{t('studio.draft.badge')}</span>}
      </p>
      {progress !== null && task.status !== 'completed' && <progress max={100} value={progress} aria-label={label} />}
      {video && <StillVideo subject={video} class="take__video" label={label} />}
      {task.status === 'waiting' && <WaitingForService task={task} label={label} />}
      {task.status === 'failed' && task.error?.message && <p class="gen-error">{task.error.message}</p>}
    </div>
  );
}
