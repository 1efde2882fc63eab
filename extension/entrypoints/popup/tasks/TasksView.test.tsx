import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { VideoCreateBody } from '@@/shared';
import { button, click, mount, text, unmount } from '@/components/dom-testing';
import { TasksView } from '@/entrypoints/popup/tasks/TasksView';
import { setLocale } from '@/lib/i18n/translate';
import { db } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { connect, resetState } from '@/lib/testing/test-setup';

const S2 = 'doubao-seedance-2-0-260128';
const body: VideoCreateBody = {
  model: S2,
  content: [
    { type: 'text', text: 'A cat surfing at dawn' },
    { type: 'image_url', image_url: { url: 'https://cdn.example.com/one.png' }, role: 'reference_image' },
    { type: 'image_url', image_url: { url: 'https://cdn.example.com/two.png' }, role: 'reference_image' },
  ],
};

const realFetch = globalThis.fetch;
let proxy: VideoFakeProxy;
let download: ReturnType<typeof vi.fn>;
let writeText: ReturnType<typeof vi.fn>;

const record = (localId: string, over: Partial<TaskRecord>): TaskRecord => ({
  localId,
  taskId: `cgt-${localId}`,
  model: S2,
  body,
  status: 'queued',
  progress: 0,
  idempotencyKey: `key-${localId}`,
  notified: false,
  createdAt: Date.now() - 45_000,
  ...over,
});

async function seed(...tasks: TaskRecord[]) {
  const database = await db();
  for (const task of tasks) {
    await database.put('tasks', task);
    // The service knows each task as stored (polling changes nothing unless a test says so).
    if (task.taskId) proxy.setTask(task.taskId, { status: task.status as never, progress: task.progress, model: task.model, ...(task.error ? { error: task.error } : {}), ...(task.videoUrl ? { metadata: { url: task.videoUrl } } : {}) });
  }
}

const items = () => [...document.querySelectorAll<HTMLLIElement>('.task')];
const item = (localId: string) => document.querySelector<HTMLLIElement>(`[aria-labelledby="task-${localId}-title"]`)!;

beforeEach(async () => {
  await resetState();
  await connect();
  proxy = new VideoFakeProxy();
  globalThis.fetch = proxy.fetch;
  download = vi.fn(async () => 1);
  (fakeBrowser as any).downloads.download = download;
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

afterEach(() => {
  unmount();
  vi.useRealTimers();
  globalThis.fetch = realFetch;
});

describe('Tasks: the list', () => {
  it('lists tasks newest first with their status, a progress bar and the elapsed time', async () => {
    const now = Date.now();
    await seed(
      record('old', { status: 'in_progress', progress: 40, createdAt: now - 185_000 }),
      record('new', { status: 'queued', createdAt: now - 5_000 }),
      record('lost', { status: 'unknown', progress: 10, createdAt: now - 90_000 }),
    );
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(3));
    expect(items().map((li) => li.querySelector('.task__status')!.textContent)).toEqual(['Queued', 'Checking again later', 'Generating 40%']);
    expect(item('old').querySelector('progress')!.getAttribute('value')).toBe('40');
    expect(item('old').querySelector('.task__elapsed')!.textContent).toMatch(/^3 min 0\d s$/);
    expect(item('lost').textContent).toContain('checks again later');
    expect(item('new').textContent).toContain('A cat surfing at dawn');
    expect(item('new').textContent).toContain('Seedance 2.0');
  });

  it('says so when there is nothing yet', async () => {
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(text()).toContain('No tasks yet.'));
  });
});

describe('Tasks: completed', () => {
  it('plays the video inline, downloads it with the browser, copies the link and warns that it expires', async () => {
    const url = 'https://cdn.example.com/out/cgt-done.mp4';
    const completedAt = Date.now() - 3.5 * 3600_000;
    await seed(record('done', { status: 'completed', progress: 100, videoUrl: url, createdAt: completedAt - 185_000, completedAt }));
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    const li = item('done');
    expect(li.querySelector('video')!.getAttribute('src')).toBe(url);
    expect(li.querySelector('video')!.hasAttribute('controls')).toBe(true);
    expect(li.querySelector('progress')).toBeNull();
    expect(li.textContent).toContain('Links expire about 24 hours after completion: about 20 h left.');
    expect(li.querySelector('.task__elapsed')!.textContent).toBe('3 min 05 s');

    click(button('Download'));
    await vi.waitFor(() => expect(download).toHaveBeenCalledWith({ url, filename: 'arkbridge-cgt-done.mp4' }));
    click(button('Copy link'));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(url));
    await vi.waitFor(() => expect(li.textContent).toContain('Link copied.'));
  });
});

describe('Tasks: the proxy’s kept copy', () => {
  const SERVICE_URL = 'https://cdn.example.com/out/cgt-kept.mp4';
  const keptUrl = (n: number) => `https://proxy.test/media/o-m0123-cgt-kept?expires=${1_766_491_200 + n}&sig=${'a'.repeat(64)}`;
  // Noon UTC: the same day in every time zone the tests may run in.
  const KEPT_UNTIL = Date.UTC(2026, 11, 23, 12) / 1000;
  const completed = (over: Partial<TaskRecord>) => {
    const completedAt = Date.now() - 3.5 * 3600_000;
    return record('kept', { status: 'completed', progress: 100, videoUrl: SERVICE_URL, createdAt: completedAt - 60_000, completedAt, ...over });
  };
  const note = () => item('kept').querySelector('.task__result')!.textContent!;

  it('plays, downloads and copies the kept copy rather than the service’s link, and says until when it is kept', async () => {
    await seed(completed({ keptUrl: keptUrl(0), keptUntil: KEPT_UNTIL, keptReadAt: Date.now() }));
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    const li = item('kept');
    expect(li.querySelector('video')!.getAttribute('src')).toBe(keptUrl(0));
    expect(li.querySelector('.task__kept')!.textContent).toBe('Kept until 23 Dec 2026');
    expect(note()).not.toContain('24 hours');

    click(button('Download'));
    await vi.waitFor(() => expect(download).toHaveBeenCalledWith({ url: keptUrl(0), filename: 'arkbridge-cgt-kept.mp4' }));
    click(button('Copy link'));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(keptUrl(0)));
    // A fresh address is not read again.
    expect(proxy.callsOf('getVideo')).toHaveLength(0);
  });

  it('a copy past its keep date is gone: the service’s link and its warning again', async () => {
    await seed(completed({ keptUrl: keptUrl(0), keptUntil: Math.floor(Date.now() / 1000) - 60, keptReadAt: Date.now() }));
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    expect(item('kept').querySelector('video')!.getAttribute('src')).toBe(SERVICE_URL);
    expect(note()).toContain('Links expire about 24 hours after completion: about 20 h left.');
    expect(item('kept').querySelector('.task__kept')).toBeNull();
  });

  it('says when the copy is being made, could not be made (why, and to download now) or was deleted, with the 24-hour warning', async () => {
    for (const [over, says] of [
      [{ keep: 'pending' }, 'Keeping a copy…'],
      [{ keep: 'failed', keepError: 'The service answered 403.' }, 'No copy was kept: The service answered 403. Download the video now.'],
      [{ keep: 'failed' }, 'No copy was kept: the proxy did not say why. Download the video now.'],
      [{ keep: 'deleted' }, 'Copy deleted.'],
    ] as const) {
      await resetState();
      await connect();
      await seed(completed({ ...over, keptReadAt: Date.now() }));
      mount(<TasksView pollMs={60_000} />);
      await vi.waitFor(() => expect(items()).toHaveLength(1));
      expect(item('kept').querySelector('.task__keep')!.textContent).toBe(says);
      expect(note()).toContain('Links expire about 24 hours after completion: about 20 h left.');
      expect(item('kept').querySelector('video')!.getAttribute('src')).toBe(SERVICE_URL);
      expect(item('kept').querySelector('.task__kept')).toBeNull();
      unmount();
    }
  });

  it('says it in Chinese too', async () => {
    await setLocale('zh-CN');
    try {
      await seed(completed({ keptUrl: keptUrl(0), keptUntil: KEPT_UNTIL, keptReadAt: Date.now() }));
      mount(<TasksView pollMs={60_000} />);
      await vi.waitFor(() => expect(items()).toHaveLength(1));
      expect(item('kept').querySelector('.task__kept')!.textContent).toBe('副本保留至 2026年12月23日');
    } finally {
      await setLocale('en');
    }
  });

  it('reads a completed task again when its address is getting old, or its copy is being made, and shows what it learns', async () => {
    // A task still generating is queried at every pass of the view: it counts the passes.
    await seed(completed({ keptUrl: keptUrl(0), keptUntil: KEPT_UNTIL, keptReadAt: Date.now() - 13 * 3600_000 }), record('run', { status: 'in_progress', progress: 10 }));
    proxy.setTask('cgt-kept', { arkbridge: { cost: 1, currency: 'CNY', priced: true, keptUrl: keptUrl(1), keptUntil: KEPT_UNTIL }, status: 'completed' });
    const reads = (localId: string) => proxy.callsOf('getVideo').filter((call) => call.path.endsWith(`/cgt-${localId}`)).length;
    mount(<TasksView pollMs={30} />);
    await vi.waitFor(() => expect(item('kept')?.querySelector('video')?.getAttribute('src')).toBe(keptUrl(1)));
    expect((await (await db()).get('tasks', 'kept'))!.keptUrl).toBe(keptUrl(1));
    // Fresh now: not read again, however often the view polls (three more passes here).
    const passes = reads('run');
    await vi.waitFor(() => expect(reads('run')).toBeGreaterThanOrEqual(passes + 3));
    expect(reads('kept')).toBe(1);
    unmount();
    await (await db()).delete('tasks', 'run');

    // A copy being made, read a minute later: kept now.
    await (await db()).put('tasks', completed({ keep: 'pending', keptReadAt: Date.now() - 61_000 }));
    mount(<TasksView pollMs={30} />);
    await vi.waitFor(() => expect(item('kept')?.querySelector('.task__kept')?.textContent).toBe('Kept until 23 Dec 2026'));
    expect(item('kept').querySelector('.task__keep')).toBeNull();
    expect(reads('kept')).toBe(2);
  });
});

describe('Tasks: failed', () => {
  const failed = () =>
    record('bad', {
      status: 'failed',
      progress: 0,
      error: { code: 'InvalidParameter', message: 'content[2].image_url: resource download failed (HTTP 403)' },
    });

  it('shows the error once, naming and highlighting the element', async () => {
    await seed(failed());
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    const li = item('bad');
    expect(li.querySelector('.task__error')!.textContent).toBe('Problem with Reference image 2: resource download failed (HTTP 403)');
    const named = li.querySelectorAll('.task__line--named');
    expect(named).toHaveLength(1);
    expect(named[0]!.textContent).toContain('Reference image 2');
    expect(named[0]!.textContent).toContain('https://cdn.example.com/two.png');
    expect(li.querySelector('details')!.open).toBe(true);
    expect(proxy.callsOf('getVideo')).toHaveLength(0); // a failed task is never queried again
  });

  it('“Submit again” creates a new task only after the member confirms, with a new key', async () => {
    await seed(failed());
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    click(button('Submit again'));
    expect(text()).toContain('Create a new task with the same request?');
    click(button('Cancel'));
    expect(proxy.callsOf('createVideo')).toHaveLength(0);

    click(button('Submit again'));
    click(button('Create new task'));
    await vi.waitFor(() => expect(items()).toHaveLength(2));
    const [call] = proxy.callsOf('createVideo');
    expect(call!.idempotencyKey).not.toBe('key-bad');
    expect(call!.body).toEqual(body);
    expect(items()[0]!.querySelector('.task__status')!.textContent).toBe('Queued');
    expect(item('bad').querySelector('.task__status')!.textContent).toBe('Failed');
  });
});

describe('Tasks: polling while open', () => {
  it('queries unfinished tasks every few seconds, resumes unanswered creates with their key, and stops when closed', async () => {
    // The view's own timers are fake (vi.waitFor moves them on): whether it leaves one behind is exact.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    await seed(record('run', { status: 'in_progress', progress: 10 }), { ...record('send', { status: 'submitting', createdAt: Date.now() - 60_000 }), taskId: undefined });
    mount(<TasksView pollMs={30} />);
    await vi.waitFor(() => expect(items()).toHaveLength(2));

    // The unanswered create is repeated with its stored key and becomes a task.
    await vi.waitFor(() => expect(item('send').querySelector('.task__status')!.textContent).toBe('Queued'));
    expect(proxy.callsOf('createVideo').map((c) => c.idempotencyKey)).toEqual(['key-send']);

    proxy.setTask('cgt-run', { status: 'in_progress', progress: 70 });
    await vi.waitFor(() => expect(item('run').querySelector('.task__status')!.textContent).toBe('Generating 70%'));
    proxy.setTask('cgt-run', { status: 'completed', progress: 100, completed_at: Math.floor(Date.now() / 1000), metadata: { url: 'https://cdn.example.com/r.mp4' } });
    await vi.waitFor(() => expect(item('run').querySelector('video')).not.toBeNull());

    // Between two passes (the next one and the clock of "45 s ago" are the only timers), it closes:
    // no timer is left, so nothing can poll again, however long the popup stays closed.
    // (Each check moves the fake time on by its interval: a third of pollMs, so a check can see the wait.)
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(2), { interval: 10 });
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    const calls = proxy.calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(proxy.calls.length).toBe(calls);
  });

  it('offline: keeps showing what is stored and says so', async () => {
    await seed(record('run', { status: 'in_progress', progress: 10 }));
    proxy.failNext('getVideo', { kind: 'network' });
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(text()).toContain('Cannot reach the proxy; showing the last known state.'));
    expect(item('run').querySelector('.task__status')!.textContent).toBe('Generating 10%');
  });
});

describe('Tasks: costs', () => {
  const cost = (localId: string) => item(localId).querySelector('.task__cost')?.textContent ?? null;

  it('shows each task’s cost as the proxy said, “unpriced” for a model without a price, nothing when it said none', async () => {
    await seed(
      record('priced', { status: 'completed', progress: 100, videoUrl: 'https://cdn.example.com/p.mp4', cost: { cost: 3.672, currency: 'CNY', priced: true } }),
      record('free', { status: 'queued', cost: { cost: 0, currency: 'CNY', priced: false } }),
      // Stored before costs existed (or by a proxy without budgets): the record as it was.
      record('older', { status: 'queued' }),
    );
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(3));
    expect(cost('priced')).toBe('3.67 CNY');
    expect(item('priced').querySelector('.task__cost')!.getAttribute('title')).toBe('Cost of this task');
    expect(cost('free')).toBe('unpriced');
    expect(cost('older')).toBeNull();
  });

  it('stores the cost a task answer carries with the task, and says when the proxy no longer follows it', async () => {
    await seed(record('run', { status: 'in_progress', progress: 10 }));
    mount(<TasksView pollMs={30} />);
    await vi.waitFor(() => expect(items()).toHaveLength(1));
    expect(cost('run')).toBeNull();
    // The same status and progress: the cost alone is news.
    proxy.setTask('cgt-run', { status: 'in_progress', progress: 10, arkbridge: { cost: 3.672, currency: 'CNY', priced: true, keptUrl: 'https://kept.example.com/x' } });
    await vi.waitFor(() => expect(cost('run')).toBe('3.67 CNY'));
    expect((await (await db()).get('tasks', 'run'))!.cost).toEqual({ cost: 3.672, currency: 'CNY', priced: true });
    proxy.setTask('cgt-run', { status: 'in_progress', progress: 10, arkbridge: { cost: 3.672, currency: 'CNY', priced: true, tracking: 'expired' } });
    await vi.waitFor(() => expect(item('run').textContent).toContain('The proxy no longer follows this task (older than 7 days).'));
  });

  it('a create refused for the budgets reads what to do, in the member’s language', async () => {
    await seed(
      record('poor', { taskId: undefined, status: 'failed', error: { code: 'budget_exceeded', message: 'This task costs 3.672 CNY; 1.2 CNY is left.' } }),
      record('busy', { taskId: undefined, status: 'failed', error: { code: 'too_many_running_tasks', message: '3 of 3 running.' } }),
    );
    mount(<TasksView pollMs={60_000} />);
    await vi.waitFor(() => expect(items()).toHaveLength(2));
    expect(item('poor').querySelector('.task__error')!.textContent).toBe(
      'Not created: the budget could not cover this task. Ask your team’s admin to raise it (a monthly budget starts again on the 1st, UTC).',
    );
    expect(item('busy').querySelector('.task__error')!.textContent).toBe('Not created: as many of your tasks were running as allowed. Submit again once one has finished.');
  });
});
