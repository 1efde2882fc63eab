import { isFinished } from '@@/shared';
import { ApiError, isGone } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { annotationChanges, annotationOf } from '@/lib/proxy/task-annotation';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { taskStore } from '@/lib/storage/task-store';

const ACTIVE = ['queued', 'in_progress', 'unknown'] as const;

/** Queries each unfinished video task by id and stores what changed. */
export async function pollTasks(client: ProxyClient): Promise<{ changed: TaskRecord[]; pending: number }> {
  const open = (await Promise.all(ACTIVE.map((s) => taskStore.withStatus(s)))).flat().filter((t) => t.taskId);
  const changed: TaskRecord[] = [];
  for (const record of open) {
    let task;
    try {
      task = await client.getVideo(record.taskId!);
    } catch (error) {
      // A task the proxy no longer knows cannot progress; anything else is retried next time.
      if (isGone(error)) {
        task = { status: 'failed' as const, progress: record.progress, error: { code: 'task_not_found', message: (error as ApiError).failure.message } };
      } else throw error;
    }
    // The proxy's cost (and whether it still follows the task), when it sends them.
    const annotation = annotationOf(task);
    if (task.status === record.status && task.progress === record.progress && !annotationChanges(record, annotation)) continue;
    const next: TaskRecord = {
      ...record,
      status: task.status,
      progress: task.progress,
      ...('metadata' in task && task.metadata?.url ? { videoUrl: task.metadata.url } : {}),
      ...(task.error ? { error: task.error } : {}),
      ...('completed_at' in task && task.completed_at ? { completedAt: task.completed_at * 1000 } : {}),
      ...annotation,
    };
    await taskStore.put(next);
    changed.push(next);
  }
  return { changed, pending: open.filter((t) => !changed.some((c) => c.localId === t.localId && c.status !== 'submitting' && isFinished(c.status))).length };
}
