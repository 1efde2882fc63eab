import { describe, expect, it } from 'vitest';
import { BufferSource, EncodedPacketSink, Input, MP4 } from 'mediabunny';
import { mediaOfSize, resultVideo } from './files';
import { MADE_MAX, videoOfLength } from './videos';

/**
 * The sandbox's videos of a given length, made in workerd by shared/media/mp4-join.ts from the
 * fixture (2 s, 30 frames at 15 per second, one keyframe).
 */

async function facts(bytes: Uint8Array) {
  const input = new Input({ formats: [MP4], source: new BufferSource(bytes) });
  const video = (await input.getPrimaryVideoTrack())!;
  const packets = [];
  for await (const packet of new EncodedPacketSink(video).packets()) packets.push(packet);
  const result = {
    seconds: await video.computeDuration(),
    frames: packets.length,
    keyframes: packets.filter((p) => p.type === 'key').map((p) => p.timestamp),
    last: packets.at(-1)!.data,
    size: [await video.getCodedWidth(), await video.getCodedHeight()],
    audio: (await input.getPrimaryAudioTrack()) !== null,
  };
  input.dispose();
  return result;
}

describe('videoOfLength', () => {
  it('repeats the fixture: 4 s is two whole copies, each starting on its keyframe', async () => {
    const four = await facts(await videoOfLength(4));
    expect(four).toMatchObject({ seconds: 4, frames: 60, keyframes: [0, 2], size: [320, 180], audio: true });
  });

  it('a length that is no multiple of 2 s starts with a shortened copy, so it still ends on the fixture’s last frame', async () => {
    const [five, fixture] = [await facts(await videoOfLength(5)), await facts(resultVideo)];
    expect(five).toMatchObject({ seconds: 5, frames: 15 + 60, keyframes: [0, 1, 3] });
    expect(five.last).toEqual(fixture.last);
  });

  it('a length between frames is cut at the next frame boundary (121 frames at 24 fps: 5.04 s)', async () => {
    const odd = await facts(await videoOfLength(121 / 24));
    // 1.04 s of the fixture is frames 0 to 15 (the 16th starts at 1.0 s): 16 frames, 1.0667 s.
    expect(odd.frames).toBe(16 + 60);
    expect(odd.seconds).toBeCloseTo(16 / 15 + 4, 6);
  });

  it('is made once per length in an isolate', async () => {
    expect(await videoOfLength(6)).toBe(await videoOfLength(6));
    expect(await videoOfLength(2)).toBe(resultVideo);
  });

  it('at a size: that size’s clip, cut and repeated the same way, ending on its own last frame', async () => {
    const [five, clip] = [await facts(await videoOfLength(5, '864x480')), await facts(mediaOfSize('864x480').video)];
    expect(five).toMatchObject({ seconds: 5, frames: 15 + 60, keyframes: [0, 1, 3], size: [864, 480], audio: true });
    expect(clip).toMatchObject({ seconds: 2, frames: 30, keyframes: [0], size: [864, 480] });
    expect(five.last).toEqual(clip.last);
  });

  it('keeps at most MADE_MAX videos: the oldest is made again', async () => {
    const first = await videoOfLength(4, '640x640');
    expect(await videoOfLength(4, '640x640')).toBe(first);
    for (let i = 0; i < MADE_MAX; i++) await videoOfLength(6 + (i + 1) / 15, '640x640');
    expect(await videoOfLength(4, '640x640')).not.toBe(first);
  });
});
