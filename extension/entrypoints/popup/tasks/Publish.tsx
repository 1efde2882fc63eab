import { useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { canPublish, publishToTeam } from '@/lib/tasks/task-publish';
import '@/lib/i18n/team.en';
import { TaskProblem } from '@/components/TaskProblem';

/** "Publish to the team" on a completed task (the team gallery), then its published state or why not. */
export function Publish({ task }: { task: TaskRecord }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function publish() {
    setBusy(true);
    setProblem(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected().message);
      const result = await publishToTeam(connected.client, task);
      if (result.ok) setDone(true);
      else setProblem(t('publish.failed', { message: result.problem.message }));
    } finally {
      setBusy(false);
    }
  }

  if (task.publishedAt) {
    return (
      <p class="task__note task__published" role={done ? 'status' : undefined}>
        {t(done ? 'publish.done' : 'publish.published')}
      </p>
    );
  }
  if (!canPublish(task)) return null;
  return (
    <div class="task__publish">
      <button type="button" disabled={busy} onClick={() => void publish()}>
        {busy ? t('publish.busy') : t('publish.action')}
      </button>
      <TaskProblem problem={problem} />
    </div>
  );
}
