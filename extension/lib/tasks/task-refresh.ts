import { pollTasks } from '@/lib/poll/task-polling';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { announceChange } from '@/lib/storage/store-changes';
import { taskStore } from '@/lib/storage/task-store';
import { resumeSubmissions } from '@/lib/tasks/task-submit';

/** Every task, newest first (first paint of the Tasks view: IndexedDB, never the network). */
export const readTasks = (): Promise<TaskRecord[]> => taskStore.newestFirst();

/**
 * One pass of the open popup: repeat the unanswered creates (same keys), then query each
 * unfinished task by id, and tell open views what changed. Throws ApiError (offline, 401, 429).
 */
export async function refreshTasks(client: ProxyClient): Promise<{ sent: number; changed: number }> {
  const resumed = await resumeSubmissions(client);
  const polled = await pollTasks(client);
  if (polled.changed.length || resumed.sent) announceChange('tasks');
  return { sent: resumed.sent, changed: polled.changed.length };
}
