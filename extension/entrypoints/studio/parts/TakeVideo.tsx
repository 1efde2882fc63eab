import { WaitingForService } from '@/components/WaitingForService';
import { t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { progressValue, statusLabel, videoAddress } from '@/lib/tasks/task-presentation';
import '@/lib/i18n/studio.en';
import '@/lib/i18n/tasks.en';

/** A take as it stands: its status and progress, its player once completed (the kept copy first), or why it failed. */
export function TakeVideo({ task, label }: { task: TaskRecord; label: string }) {
  const url = task.status === 'completed' ? videoAddress(task, Date.now()) : undefined;
  const progress = progressValue(task);
  return (
    <div class="take">
      <p class="take__status">
        {statusLabel(task)}
        {(task.body as { draft?: boolean }).draft === true && <span class="take__badge">{t('studio.draft.badge')}</span>}
      </p>
      {progress !== null && task.status !== 'completed' && <progress max={100} value={progress} aria-label={label} />}
      {url && <video class="take__video" src={url} controls preload="metadata" aria-label={label} />}
      {task.status === 'waiting' && <WaitingForService task={task} label={label} />}
      {task.status === 'failed' && task.error?.message && <p class="gen-error">{task.error.message}</p>}
    </div>
  );
}
