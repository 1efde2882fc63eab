import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_IDS as ids } from '@@/shared/catalog/testing/model-ids';
import { button, byLabel, click, mount, select, text, type, unmount } from '@/components/dom-testing';
import { StudioApp } from '@/entrypoints/studio/StudioApp';
import { allByTestId, byAriaLabel, byTestId, studioTestbed } from '@/entrypoints/studio/testing/studio-testbed';
import { stepRuns } from '@/lib/background/storyboard-runs';
import { setSyncPass } from '@/lib/messaging/sync-soon';
import { connectedClient } from '@/lib/proxy/connected-client';
import { closeDb } from '@/lib/storage/database';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import type { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';

let proxy: VideoFakeProxy;

beforeEach(async () => {
  proxy = await studioTestbed();
  vi.stubGlobal('confirm', () => true);
  // The background drives runs: its step stands in for its pass when the page asks for one.
  setSyncPass(async () => {
    const connected = await connectedClient();
    if (connected) await stepRuns(connected.client);
  });
});
// The fake proxy stays behind `fetch` after a test (a late refresh must not reach the network); the next test stubs its own.
afterEach(() => unmount());

const shotPrompts = () => allByTestId('shot').map((li) => li.querySelector('.shot__prompt')?.textContent);

/** Opens the studio on a new storyboard of two Seedance 2.0 shots with prompts. */
async function twoShots() {
  mount(<StudioApp />);
  await vi.waitFor(() => button('New storyboard'), { timeout: 8000 });
  click(button('New storyboard'));
  await vi.waitFor(() => byLabel<HTMLSelectElement>('Model'));
  select(byLabel<HTMLSelectElement>('Model'), ids.s2);
  type(byLabel<HTMLTextAreaElement>('Prompt of shot 1'), 'A door opens');
  click(byTestId('add-shot'));
  await vi.waitFor(() => expect(allByTestId('shot')).toHaveLength(2));
  click(button('Shot 2'));
  await vi.waitFor(() => byLabel<HTMLTextAreaElement>('Prompt of shot 2'));
  type(byLabel<HTMLTextAreaElement>('Prompt of shot 2'), 'She walks in');
  await vi.waitFor(() => expect(shotPrompts()).toEqual(['A door opens', 'She walks in']));
}

describe('Studio: storyboard', { timeout: 20_000 }, () => {
  it('a first visit says to start a storyboard, with the button that does it; a new shot says how to make a take', async () => {
    mount(<StudioApp />);
    await vi.waitFor(() => byTestId('empty-storyboard'), { timeout: 8000 });
    expect(byTestId('empty-storyboard').textContent).toContain('Start with a storyboard: one shot per scene, in the order they play.');
    click(byTestId('empty-storyboard').querySelector('button')!);
    await vi.waitFor(() => byTestId('empty-takes'));
    expect(byTestId('empty-takes').textContent).toBe('No takes yet: write the prompt, then Run in order or Run all makes one.');
    expect(document.querySelector('[data-testid="empty-storyboard"]')).toBeNull();
  });

  it('keeps a shot’s rarely changed settings in a closed "More settings" with a caption of what is set', async () => {
    await twoShots();
    const more = () => byTestId<HTMLDetailsElement>('more-settings');
    expect(more().open).toBe(false);
    expect(more().contains(byLabel('Duration (s)')), 'duration up front').toBe(false);
    select(byLabel<HTMLSelectElement>('Resolution'), '720p');
    select(byLabel<HTMLSelectElement>('Aspect ratio'), '16:9');
    await vi.waitFor(() => expect(byTestId('more-settings-caption').textContent).toBe('720p · 16:9'));
    expect(more().open).toBe(false);
  });

  it('chains shot 2 to shot 1 and runs all: shot 1 asks for its last frame, shot 2 waits for it', async () => {
    await twoShots();
    expect(byLabel<HTMLSelectElement>('Model').value).toBe(ids.s2);
    click(byLabel('Start from the previous shot’s last frame'));
    await vi.waitFor(async () => expect((await storyboardStore.all())[0]!.shots[1]!.chain).toBe(true));
    click(byTestId('run-all'));
    await vi.waitFor(() => expect(proxy.callsOf('createVideo')).toHaveLength(1), { timeout: 8000 });
    expect(proxy.callsOf('createVideo')[0]!.body).toMatchObject({ model: ids.s2, return_last_frame: true, content: [{ type: 'text', text: 'A door opens' }] });
    await vi.waitFor(() => expect(allByTestId('shot-status').map((s) => s.textContent)).toEqual(['Queued', 'Waiting in the run']));
    // The take is an ordinary task record (it shows in the popup's Tasks too).
    expect((await taskStore.newestFirst()).map((t) => t.body.content?.[0])).toEqual([{ type: 'text', text: 'A door opens' }]);
  });

  it('offers the chain only where the models allow it, and says why not', async () => {
    await twoShots();
    select(byLabel<HTMLSelectElement>('Model'), ids.pro);
    await vi.waitFor(() => expect(byTestId('chain-unavailable').textContent).toMatch(/cannot start from a last frame/));
    expect(document.querySelector('[data-testid="chain-toggle"]')).toBeNull();
    click(button('Shot 1'));
    await vi.waitFor(() => byLabel('Prompt of shot 1'));
    expect(document.querySelector('[data-testid="chain-toggle"]')).toBeNull();
  });

  it('runs in order: only the first shot is created until it has finished', async () => {
    await twoShots();
    click(byTestId('run-in-order'));
    await vi.waitFor(() => expect(proxy.callsOf('createVideo')).toHaveLength(1), { timeout: 8000 });
    expect(proxy.callsOf('createVideo')[0]!.body.return_last_frame).toBeUndefined();
    await vi.waitFor(() => expect(allByTestId('shot-status')[1]!.textContent).toBe('Waiting in the run'));
  });

  it('moves, duplicates and deletes shots from the keyboard-reachable buttons', async () => {
    await twoShots();
    byAriaLabel('Move shot 2 up').focus();
    click(byAriaLabel('Move shot 2 up'));
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['She walks in', 'A door opens']));
    // The moved shot keeps the focus (its "up" is disabled at the top: its title has it).
    await vi.waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit shot 1'));
    click(byAriaLabel('Move shot 1 down'));
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['A door opens', 'She walks in']));
    await vi.waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit shot 2'));
    click(byAriaLabel('Move shot 2 up'));
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['She walks in', 'A door opens']));
    click(byAriaLabel('Duplicate shot 1'));
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['She walks in', 'She walks in', 'A door opens']));
    click(byAriaLabel('Delete shot 3'));
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['She walks in', 'She walks in']));
    expect(byAriaLabel('Move shot 1 up').disabled).toBe(true);
  });

  it('keeps the storyboard across a reload', async () => {
    await twoShots();
    unmount();
    await act(() => closeDb());
    mount(<StudioApp />);
    await vi.waitFor(() => expect(shotPrompts()).toEqual(['A door opens', 'She walks in']), { timeout: 8000 });
    expect(text()).toContain('Storyboard 1');
  });
});
