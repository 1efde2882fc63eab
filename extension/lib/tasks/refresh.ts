import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { announceChange, db, type TaskRecord } from '../db';
import { pollTasks } from '../poll/tasks';
import { resumeSubmissions } from './submit';

/** Every task, newest first (first paint of the Tasks view: IndexedDB, never the network). */
export async function readTasks(): Promise<TaskRecord[]> {
  const tasks = await (await db()).getAllFromIndex('tasks', 'byCreatedAt');
  return tasks.reverse();
}

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
