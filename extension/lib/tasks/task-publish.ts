import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import { type ActionResult, problemOf } from '@/lib/proxy/failure-message';
import { publishTask as postToGallery } from '@/lib/proxy/gallery-client';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { announceChange } from '@/lib/storage/store-changes';
import { taskStore } from '@/lib/storage/task-store';
import '@/lib/i18n/team.en';

/** Whether the Tasks view offers "Publish to the team": a completed task the proxy knows (every local task is the member's own). */
export const canPublish = (task: TaskRecord): boolean => task.status === 'completed' && Boolean(task.taskId) && !task.publishedAt;

/**
 * Publishes a completed task to the team gallery (`POST /proxy/gallery`; publishing again answers
 * the item as it is) and records when on the task, so that Tasks shows it published.
 */
export async function publishToTeam(client: ProxyClient, task: TaskRecord): Promise<ActionResult<TaskRecord>> {
  if (task.status !== 'completed' || !task.taskId) return { ok: false, problem: { message: t('publish.notCompleted') } };
  let publishedAt: string;
  try {
    ({ publishedAt } = await postToGallery(client, task.taskId));
  } catch (error) {
    if (error instanceof ApiError && error.failure.kind === 'rejected' && error.failure.code === 'task_not_completed') {
      return { ok: false, problem: { message: t('publish.notCompleted') } };
    }
    return { ok: false, problem: await problemOf(error) };
  }
  const record = (await taskStore.update(task.localId, (current) => ({ ...current, publishedAt }))) ?? { ...task, publishedAt };
  announceChange('tasks');
  return { ok: true, value: record };
}
