import { describe, expect, it, vi } from 'vitest';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { TasksView } from '@/entrypoints/popup/tasks/TasksView';
import { useTasksTestbed } from '@/entrypoints/popup/tasks/testing/tasks-testbed';
import { db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { taskStore } from '@/lib/storage/task-store';

const S2 = 'doubao-seedance-2-0-260128';
const proxy = useTasksTestbed();

const record = (localId: string, over: Partial<TaskRecord>): TaskRecord => ({
  localId,
  taskId: `cgt-${localId}`,
  model: S2,
  body: { model: S2, content: [{ type: 'text', text: 'A cat surfing at dawn' }] },
  status: 'completed',
  progress: 100,
  idempotencyKey: `key-${localId}`,
  notified: true,
  createdAt: Date.now() - 60_000,
  completedAt: Date.now() - 10_000,
  videoUrl: 'https://cdn.example.com/video.mp4',
  ...over,
});

async function seed(...tasks: TaskRecord[]) {
  const database = await db();
  for (const task of tasks) {
    await database.put('tasks', task);
    proxy().setTask(task.taskId!, { status: task.status as never, progress: task.progress, model: task.model, ...(task.videoUrl ? { metadata: { url: task.videoUrl } } : {}) });
  }
}

const item = (localId: string) => document.querySelector<HTMLLIElement>(`[aria-labelledby="task-${localId}-title"]`)!;
const publishes = () => proxy().calls.filter((c) => c.method === 'POST' && c.path === '/proxy/gallery');

describe('Tasks: publishing to the team', () => {
  it('publishes a completed task once (POST /proxy/gallery) and shows it published, also on the next opening', async () => {
    await seed(record('done', {}), record('running', { status: 'in_progress', progress: 30, videoUrl: undefined, completedAt: undefined }));
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(item('done')).toBeTruthy());
    // Only a completed task offers it.
    expect(item('running').textContent).not.toContain('Publish to the team');
    click(button('Publish to the team'));
    await vi.waitFor(() => expect(item('done').textContent).toContain('Published to the team gallery.'));
    expect(publishes().map((c) => c.body)).toEqual([{ taskId: 'cgt-done' }]);
    expect(proxy().team.gallery.map((i) => i.taskId)).toEqual(['cgt-done']);
    expect((await taskStore.newestFirst()).find((t) => t.localId === 'done')!.publishedAt).toBeTruthy();

    unmount();
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(item('done')?.textContent).toContain('Published to the team'));
    expect([...document.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Publish to the team');
    expect(publishes()).toHaveLength(1);
  });

  it('says why a publish was refused and offers it again', async () => {
    await seed(record('done', {}));
    proxy().failNext('/proxy/gallery', { kind: 'api-error', status: 409, code: 'task_not_completed', message: 'The task has not completed.' });
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(item('done')).toBeTruthy());
    click(button('Publish to the team'));
    await vi.waitFor(() => expect(item('done').querySelector('[role="alert"]')?.textContent).toBe('Could not publish: Only a completed video can be published.'));
    expect(button('Publish to the team').disabled).toBe(false);
    expect(text()).not.toContain('Published to the team gallery.');
  });
});
