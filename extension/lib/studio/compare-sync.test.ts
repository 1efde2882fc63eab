import { describe, expect, it } from 'vitest';
import { CompareSync, type SyncedMedia } from '@/lib/studio/compare-sync';

class FakeMedia implements SyncedMedia {
  currentTime = 0;
  paused = true;
  constructor(public duration: number) {}
  play() {
    this.paused = false;
  }
  pause() {
    this.paused = true;
  }
}

describe('compare’s one control', () => {
  it('plays and pauses every take together, from the same time', async () => {
    const media = [new FakeMedia(5), new FakeMedia(5), new FakeMedia(6)];
    media[1]!.currentTime = 2;
    const sync = new CompareSync(() => media);
    await sync.play();
    expect(media.map((m) => [m.paused, m.currentTime])).toEqual([
      [false, 0],
      [false, 0],
      [false, 0],
    ]);
    sync.pause();
    expect(media.every((m) => m.paused)).toBe(true);
  });

  it('seeks every take, within its own length', () => {
    const media = [new FakeMedia(5), new FakeMedia(3)];
    const sync = new CompareSync(() => media);
    sync.seek(4);
    expect(media.map((m) => m.currentTime)).toEqual([4, 3]);
    expect(sync.duration).toBe(5);
  });
});
