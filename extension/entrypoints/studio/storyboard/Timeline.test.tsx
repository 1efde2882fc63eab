import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, mount, unmount } from '@/components/dom-testing';
import { StudioApp } from '@/entrypoints/studio/StudioApp';
import { allByTestId, byTestId, completedTake, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { forgetStills } from '@/lib/tasks/task-stills';

// The video's stills as the page would take them (happy-dom decodes no video): a head, a tail, the measured length.
vi.mock('@/lib/tasks/still-frame', () => ({
  takeStills: async (url: string) => ({ kind: 'taken', head: `data:image/jpeg;base64,H-${url.slice(-6)}`, tail: `data:image/jpeg;base64,T-${url.slice(-6)}`, duration: url.includes('t1') ? 5.04 : 4 }),
}));

const LAST_FRAME = 'https://proxy.test/media/t2-last.png';
const form = (prompt: string) => ({ model: 'm', prompt, references: [], params: {} });
const board: StoryboardRecord = {
  id: 'b1',
  name: 'Lighthouse',
  createdAt: 1,
  updatedAt: 1,
  shots: [
    { id: 's1', form: form('one'), chain: false, takes: ['t1'] },
    { id: 's2', form: form('two'), chain: false, takes: ['t2'] },
    { id: 's3', form: form('three'), chain: false, takes: [] },
  ],
};

beforeEach(async () => {
  await studioTestbed();
  forgetStills();
  await taskStore.put(completedTake('t1', { body: { model: 'm', duration: 5 } }));
  await taskStore.put(completedTake('t2', { body: { model: 'm', duration: 4 }, keptLastFrameUrl: LAST_FRAME }));
  await storyboardStore.put(board);
  localStorage.setItem('arkbridge.studio.board', 'b1');
});
afterEach(() => unmount());

const cards = () => allByTestId('timeline-card');
const lengths = () => cards().map((c) => c.querySelector('[data-testid="card-length"]')!.textContent);
const cardButton = (n: number) => cards()[n - 1]!.querySelector('button')!;
const current = () => cards().flatMap((c, i) => (c.getAttribute('aria-current') === 'true' ? [i + 1] : []));
const player = () => document.querySelector<HTMLVideoElement>('[data-testid="storyboard-player"]');

async function openTimeline() {
  mount(<StudioApp />);
  await vi.waitFor(() => expect(cards()).toHaveLength(3), { timeout: 8000 });
}

describe('Studio: the timeline', { timeout: 20_000 }, () => {
  it('shows the shots in order as stills with their lengths (as measured) and the total; a shot with no take is said to be skipped', async () => {
    await openTimeline();
    expect(cards().map((c) => c.textContent)).toEqual([expect.stringContaining('Shot 1'), expect.stringContaining('Shot 2'), expect.stringContaining('No completed take')]);
    // First as asked, then as measured from the videos once their stills are taken.
    await vi.waitFor(() => expect(lengths()).toEqual(['5.0 s', '4.0 s', 'length not known']));
    await vi.waitFor(() => expect(cards()[0]!.querySelector('img[data-testid="card-head"]')?.getAttribute('src')).toBe('data:image/jpeg;base64,H-t1.mp4'));
    expect(byTestId('timeline-total').textContent).toBe('Total 9.0 s');
    // Head and tail: the taken frames, the kept last frame as the tail where there is one.
    expect(cards()[0]!.querySelector('img[data-testid="card-tail"]')!.getAttribute('src')).toBe('data:image/jpeg;base64,T-t1.mp4');
    await vi.waitFor(() => expect(cards()[1]!.querySelector('img[data-testid="card-head"]')?.getAttribute('src')).toBe('data:image/jpeg;base64,H-t2.mp4'));
    expect(cards()[1]!.querySelector('img[data-testid="card-tail"]')!.getAttribute('src')).toBe(LAST_FRAME);
    // Widths follow the lengths, the measured one once it is read (a render after the stills can show).
    await vi.waitFor(() => expect(cards().map((c) => c.style.flexGrow)).toEqual(['5.04', '4', '1']));
    expect(byTestId('timeline-skipped').textContent).toBe('Skipped when playing (no completed take): shot 3.');
    // Named by what it shows; the hint says what pressing and Alt+arrows do.
    expect(cardButton(1).textContent).toBe('Shot 1 5.0 s');
    expect(document.getElementById(cardButton(1).getAttribute('aria-describedby')!)!.textContent).toMatch(/^Press a shot to play from it\. To reorder, drag a shot, or focus it and press Alt\+Left or Alt\+Right\.$/);
  });

  it('moves a focused shot with Alt+Right and Alt+Left, stored as the arrow buttons store it, and says where it went', async () => {
    await openTimeline();
    cardButton(1).focus();
    act(() => void cardButton(1).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', altKey: true, bubbles: true })));
    await vi.waitFor(async () => expect((await storyboardStore.get('b1'))!.shots.map((s) => s.id)).toEqual(['s2', 's1', 's3']));
    await vi.waitFor(() => expect(cards().map((c) => c.getAttribute('data-card-id'))).toEqual(['s2', 's1', 's3']));
    expect(byTestId('timeline-said').textContent).toBe('Shot moved to place 2 of 3.');
    // The list of shots follows, and the moved card keeps the focus for the next key.
    await vi.waitFor(() => expect(document.activeElement).toBe(cardButton(2)));
    act(() => void cardButton(2).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', altKey: true, bubbles: true })));
    await vi.waitFor(async () => expect((await storyboardStore.get('b1'))!.shots.map((s) => s.id)).toEqual(['s2', 's3', 's1']));
    // Without Alt, arrows are left to the page (not taken, nothing moved); and nothing moves past the end.
    const plain = new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true, cancelable: true });
    act(() => void cardButton(3).dispatchEvent(plain));
    expect(plain.defaultPrevented).toBe(false);
    act(() => void cardButton(3).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', altKey: true, bubbles: true })));
    await act(async () => void (await storyboardStore.get('b1')));
    expect((await storyboardStore.get('b1'))!.shots.map((s) => s.id)).toEqual(['s2', 's3', 's1']);
    act(() => void cardButton(3).dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', altKey: true, bubbles: true })));
    await vi.waitFor(async () => expect((await storyboardStore.get('b1'))!.shots.map((s) => s.id)).toEqual(['s2', 's1', 's3']));
    await vi.waitFor(() => expect(allByTestId('shot').map((li) => li.getAttribute('data-shot-id'))).toEqual(['s2', 's1', 's3']));
  });

  it('plays the storyboard in one player: shot 1, then shot 2 on `ended`, the highlight moving; the shot with no take is skipped; a card jumps there', async () => {
    await openTimeline();
    expect(player()).toBeNull();
    click(byTestId('play-storyboard'));
    await vi.waitFor(() => expect(player()?.getAttribute('src')).toBe('https://cdn.test/t1.mp4'));
    expect(current()).toEqual([1]);
    expect(byTestId('timeline-said').textContent).toBe('Playing shot 1');
    const first = player();
    act(() => void player()!.dispatchEvent(new Event('ended')));
    await vi.waitFor(() => expect(player()?.getAttribute('src')).toBe('https://cdn.test/t2.mp4'));
    expect(player(), 'one player, its source moved on').toBe(first);
    expect(current()).toEqual([2]);
    expect(byTestId('timeline-said').textContent).toBe('Playing shot 2');
    // Shot 3 has nothing to play: the storyboard ends after shot 2.
    act(() => void player()!.dispatchEvent(new Event('ended')));
    await vi.waitFor(() => expect(player()).toBeNull());
    expect(current()).toEqual([]);
    // Pressing a card plays from there.
    click(cardButton(2));
    await vi.waitFor(() => expect(player()?.getAttribute('src')).toBe('https://cdn.test/t2.mp4'));
    expect(current()).toEqual([2]);
    click(cardButton(3));
    expect(byTestId('timeline-said').textContent).toBe('Playing shot 2');
  });
});
