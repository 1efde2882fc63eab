import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, text, unmount } from '@/components/dom-testing';
import { StillVideo } from '@/components/StillVideo';
import { stillStore } from '@/lib/storage/still-store';
import { forgetStills } from '@/lib/tasks/task-stills';
import { resetState } from '@/lib/testing/test-setup';

const taken = vi.hoisted(() => ({ calls: [] as string[], answer: { kind: 'taken', head: 'data:image/jpeg;base64,HEAD', tail: 'data:image/jpeg;base64,TAIL', duration: 5 } as object }));
vi.mock('@/lib/tasks/still-frame', () => ({
  takeStills: async (url: string) => {
    taken.calls.push(url);
    return taken.answer;
  },
}));

const VIDEO = 'https://proxy.test/media/v1?sig=1';
const player = () => document.querySelector<HTMLVideoElement>('video.take__video');

beforeEach(async () => {
  await resetState();
  forgetStills();
  taken.calls.length = 0;
  taken.answer = { kind: 'taken', head: 'data:image/jpeg;base64,HEAD', tail: 'data:image/jpeg;base64,TAIL', duration: 5 };
});
afterEach(() => unmount());

describe('a video tile’s still', () => {
  it('is the kept last frame where there is one, and none is taken from the video', async () => {
    const other = 'https://proxy.test/media/v9?sig=1';
    mount(
      <>
        <StillVideo subject={{ key: 'cgt-1', url: VIDEO, lastFrameUrl: 'https://proxy.test/media/f1.png' }} class="take__video" label="Take 1" />
        <StillVideo subject={{ key: 'cgt-9', url: other }} class="other" label="Take 9" />
      </>,
    );
    expect(player()!.getAttribute('poster')).toBe('https://proxy.test/media/f1.png');
    expect(player()!.getAttribute('src')).toBe(VIDEO);
    // Stills are taken one at a time in the order asked: once the second tile's is taken, the
    // first would have been too, had it asked.
    await vi.waitFor(() => expect(document.querySelector('video.other')!.getAttribute('poster')).toBe('data:image/jpeg;base64,HEAD'));
    expect(taken.calls).toEqual([other]);
    expect(player()!.getAttribute('poster')).toBe('https://proxy.test/media/f1.png');
  });

  it('without one, is taken from the video once, stored, and reused when the page opens again', async () => {
    mount(<StillVideo subject={{ key: 'cgt-2', url: VIDEO }} class="take__video" label="Take 1" />);
    expect(player()!.getAttribute('data-still')).toBe('pending');
    await vi.waitFor(() => expect(player()!.getAttribute('poster')).toBe('data:image/jpeg;base64,HEAD'));
    expect(await stillStore.get('cgt-2')).toMatchObject({ head: 'data:image/jpeg;base64,HEAD', tail: 'data:image/jpeg;base64,TAIL', duration: 5 });
    // Rendered again, and a second tile of the same task: still the one still.
    mount(
      <>
        <StillVideo subject={{ key: 'cgt-2', url: VIDEO }} class="take__video" label="Take 1" />
        <StillVideo subject={{ key: 'cgt-2', url: VIDEO }} class="take__video" label="Take 1 again" />
      </>,
    );
    await vi.waitFor(() => expect([...document.querySelectorAll('video')].map((v) => v.getAttribute('poster'))).toEqual(['data:image/jpeg;base64,HEAD', 'data:image/jpeg;base64,HEAD']));
    // A page opened later reads the stored still.
    unmount();
    forgetStills();
    mount(<StillVideo subject={{ key: 'cgt-2', url: VIDEO }} class="take__video" label="Take 1" />);
    await vi.waitFor(() => expect(player()!.getAttribute('poster')).toBe('data:image/jpeg;base64,HEAD'));
    expect(taken.calls).toEqual([VIDEO]);
  });

  it('is taken again once the kept copy arrives when the service’s own link could not be read', async () => {
    taken.answer = { kind: 'unreadable' };
    mount(<StillVideo subject={{ key: 'cgt-5', url: 'https://cdn.test/v5.mp4' }} class="take__video" label="Take 1" />);
    await vi.waitFor(() => expect(taken.calls).toEqual(['https://cdn.test/v5.mp4']));
    taken.answer = { kind: 'taken', head: 'data:image/jpeg;base64,KEPT', duration: 5 };
    mount(<StillVideo subject={{ key: 'cgt-5', url: VIDEO }} class="take__video" label="Take 1" />);
    await vi.waitFor(() => expect(player()!.getAttribute('poster')).toBe('data:image/jpeg;base64,KEPT'));
    expect(taken.calls).toEqual(['https://cdn.test/v5.mp4', VIDEO]);
  });

  it('says in words that the video is gone when it does not load (expired, deleted)', async () => {
    taken.answer = { kind: 'gone' };
    mount(<StillVideo subject={{ key: 'cgt-3', url: VIDEO }} class="take__video" label="Take 1" />);
    await vi.waitFor(() => expect(text()).toContain('This video is gone: its link expired or its copy was deleted.'));
    expect(player()).toBeNull();
    expect(await stillStore.get('cgt-3')).toBeUndefined();
  });

  it('says so too when the player itself cannot load it', async () => {
    mount(<StillVideo subject={{ key: 'cgt-4', url: VIDEO, lastFrameUrl: 'https://proxy.test/media/f4.png' }} class="take__video" label="Take 1" />);
    act(() => void player()!.dispatchEvent(new Event('error')));
    expect(player()).toBeNull();
    expect(text()).toContain('This video is gone');
  });
});
