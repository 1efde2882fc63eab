import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ALARM } from '@/lib/background/background-sync';
import { syncSoon } from '@/lib/messaging/sync-soon';
import { closeDb } from '@/lib/storage/database';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { startRun } from '@/lib/studio/run-driver';
import { chainedBoard } from '@/lib/studio/testing/chained-board';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { backgroundTestbed, type BrowserMocks, connect, shown } from '@/lib/testing/test-setup';

let video: VideoFakeProxy;
let mocks: BrowserMocks;

/** What the alarm does when it fires: time passes, then a pass runs (as in a restarted service worker). */
async function alarmFires(): Promise<void> {
  const alarm = await fakeBrowser.alarms.get(ALARM);
  if (!alarm) throw new Error('no alarm set');
  vi.setSystemTime(alarm.scheduledTime);
  await closeDb();
  await syncSoon();
}

beforeEach(async () => {
  ({ mocks } = await backgroundTestbed(['Date']));
  vi.setSystemTime(1_700_000_000_000);
  await connect();
  video = new VideoFakeProxy();
  vi.stubGlobal('fetch', video.fetch);
});

afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});


const takeOf = async (boardId: string, index: number) => (await taskStore.get((await storyboardStore.get(boardId))!.shots[index]!.takes.at(-1)!))!;

describe('storyboard runs in the background', () => {
  it('launches the shots in order on its alarm with no page open, and tells when the storyboard is finished', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    // No studio steps it: the background's pass launches the first shot.
    await syncSoon();
    expect(video.callsOf('createVideo')).toHaveLength(1);
    const first = await takeOf(board.id, 0);
    video.setTask(first.taskId!, { status: 'completed', progress: 100, metadata: { url: 'https://cdn.test/1.mp4', last_frame_url: 'https://cdn.test/1-last.png' } });

    await alarmFires();
    expect(video.callsOf('createVideo')).toHaveLength(2);
    expect(video.callsOf('createVideo')[1]!.body.content).toContainEqual({ type: 'image_url', image_url: { url: 'https://cdn.test/1-last.png' }, role: 'first_frame' });
    expect((await storyboardStore.get(board.id))!.run?.state).toBe('running');
    expect(shown(mocks.notify).filter(([id]) => id.startsWith('run-'))).toEqual([]);

    const second = await takeOf(board.id, 1);
    video.setTask(second.taskId!, { status: 'completed', progress: 100, metadata: { url: 'https://cdn.test/2.mp4' } });
    await alarmFires();
    expect((await storyboardStore.get(board.id))!.run).toMatchObject({ state: 'completed', announced: true });
    expect(shown(mocks.notify).filter(([id]) => id.startsWith('run-'))).toEqual([[`run-${board.id}`, 'Storyboard “Trailer” is finished', expect.stringMatching(/All 2 shots/)]]);
    // Told once; nothing left to follow.
    await syncSoon();
    expect(shown(mocks.notify).filter(([id]) => id.startsWith('run-'))).toHaveLength(1);
    expect(await fakeBrowser.alarms.get(ALARM)).toBeUndefined();
  });

  it('tells which shot a failed run stopped at, with the service’s reason', async () => {
    const board = await chainedBoard();
    await startRun(board.id, 'order');
    await syncSoon();
    const first = await takeOf(board.id, 0);
    video.setTask(first.taskId!, { status: 'failed', progress: 0, error: { code: 'x', message: 'The prompt was refused' } });
    await alarmFires();
    expect(shown(mocks.notify).filter(([id]) => id.startsWith('run-'))).toEqual([[`run-${board.id}`, 'Storyboard “Trailer” stopped at shot 1', 'The prompt was refused']]);
    expect(video.callsOf('createVideo')).toHaveLength(1);
  });
});
