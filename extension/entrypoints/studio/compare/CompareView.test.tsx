import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, mount, type, unmount } from '@/components/dom-testing';
import { CompareView } from '@/entrypoints/studio/compare/CompareView';
import { allByTestId, byAriaLabel, byTestId, completedTake, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import { closeDb } from '@/lib/storage/database';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';

const take = (localId: string): TaskRecord => completedTake(localId);

/** Each player's state, as the page drives it (happy-dom plays nothing). */
const state = new Map<HTMLMediaElement, { paused: boolean; time: number }>();
const of = (el: HTMLMediaElement) => state.get(el) ?? state.set(el, { paused: true, time: 0 }).get(el)!;

beforeEach(async () => {
  await studioTestbed();
  state.clear();
  const proto = HTMLMediaElement.prototype as any;
  vi.spyOn(proto, 'play').mockImplementation(function (this: HTMLMediaElement) {
    of(this).paused = false;
    return Promise.resolve();
  });
  vi.spyOn(proto, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    of(this).paused = true;
  });
  vi.spyOn(proto, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return of(this).paused;
  });
  vi.spyOn(proto, 'duration', 'get').mockReturnValue(5);
  vi.spyOn(proto, 'currentTime', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return of(this).time;
  });
  vi.spyOn(proto, 'currentTime', 'set').mockImplementation(function (this: HTMLMediaElement, value: number) {
    of(this).time = value;
  });
  for (const id of ['a', 'b', 'c']) await taskStore.put(take(id));
  await storyboardStore.put({
    id: 'board',
    name: 'Trailer',
    createdAt: 0,
    updatedAt: 0,
    shots: [{ id: 'shot', form: { model: 'm', prompt: '', references: [], params: {} }, chain: false, takes: ['a', 'b', 'c'] }],
  });
});
afterEach(() => {
  unmount();
  vi.restoreAllMocks();
});

const videos = () => [...document.querySelectorAll('video')];

describe('Studio: compare', () => {
  it('shows the picked takes side by side, played, paused and moved by one control', async () => {
    mount(<CompareView />);
    await vi.waitFor(() => expect(videos()).toHaveLength(2));
    click(byAriaLabel('Compare Take 3'));
    expect(videos().map((v) => v.getAttribute('src'))).toEqual(['https://cdn.test/a.mp4', 'https://cdn.test/b.mp4', 'https://cdn.test/c.mp4']);
    click(byTestId('compare-play'));
    await vi.waitFor(() => expect(byTestId('compare-play').textContent).toBe('Pause all'));
    expect(videos().map((v) => v.paused)).toEqual([false, false, false]);
    type(byTestId<HTMLInputElement>('compare-position'), '2.5');
    expect(videos().map((v) => v.currentTime)).toEqual([2.5, 2.5, 2.5]);
    click(byTestId('compare-play'));
    await vi.waitFor(() => expect(videos().every((v) => v.paused)).toBe(true));
  });

  it('stores the chosen take of the shot (the one its export uses)', async () => {
    mount(<CompareView />);
    await vi.waitFor(() => expect(videos()).toHaveLength(2));
    click(allByTestId('compare-choose')[1]!);
    await vi.waitFor(() => expect(allByTestId('chosen-mark')).toHaveLength(1));
    expect(allByTestId('compare-choose').map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true']);
    await closeDb();
    expect((await storyboardStore.get('board'))!.shots[0]!.chosen).toBe('b');
  });
});
