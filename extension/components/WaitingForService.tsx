import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { cancelWaiting } from '@/lib/tasks/task-cancel';
import '@/lib/i18n/tasks.en';
import { TaskProblem } from './TaskProblem';

/**
 * Under a task waiting for the service (the popup's Tasks view, the studio's takes): what waiting
 * means, and Cancel, which takes it out of the proxy's queue. Its place in line is the status label's.
 */
export function WaitingForService({ task, label }: { task: TaskRecord; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function cancel() {
    setBusy(true);
    setProblem(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected().message);
      await cancelWaiting(connected.client, task);
    } catch (error) {
      if (await handleUnauthorized(error)) return;
      setProblem(t('tasks.waiting.cancelFailed', { message: error instanceof ApiError ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="waiting" data-testid="waiting">
      <p class="task__note">{t('tasks.waiting.note')}</p>
      <button type="button" data-testid="waiting-cancel" disabled={busy} aria-label={label ? `${t('tasks.waiting.cancel')}: ${label}` : undefined} onClick={() => void cancel()}>
        {busy ? t('tasks.waiting.cancelling') : t('tasks.waiting.cancel')}
      </button>
      <TaskProblem problem={problem} />
    </div>
  );
}
