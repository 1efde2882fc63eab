import { describe, expect, it } from 'vitest';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { joinMp4, type JoinResult, type JoinedMp4 } from './mp4-join';
import { fixtureMp4, remuxedFixture } from './testing/mp4-fixtures';

const FRAME = 1 / 15;
// The fixture: 2 s of video in 30 frames with one keyframe; 88 AAC packets, the first a priming one.
const FIXTURE = { seconds: 2, frames: 30, audioPackets: 88 };

function joined(result: JoinResult): JoinedMp4 {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
}

async function readBack(bytes: Uint8Array) {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const video = (await input.getPrimaryVideoTrack())!;
  const audio = (await input.getPrimaryAudioTrack())!;
  const videoTimes: number[] = [];
  const keyTimes: number[] = [];
  for await (const packet of new EncodedPacketSink(video).packets()) {
    videoTimes.push(packet.timestamp);
    if (packet.type === 'key') keyTimes.push(packet.timestamp);
  }
  let audioPackets = 0;
  let audioEnd = -Infinity;
  const audioTimes: number[] = [];
  for await (const packet of new EncodedPacketSink(audio).packets()) {
    audioPackets += 1;
    audioTimes.push(packet.timestamp);
    audioEnd = Math.max(audioEnd, packet.timestamp + packet.duration);
  }
  const facts = {
    videoDuration: await video.computeDuration(),
    codec: await video.getCodecParameterString(),
    size: [await video.getCodedWidth(), await video.getCodedHeight()],
    videoTimes,
    keyTimes,
    audioPackets,
    audioTimes,
    audioEnd,
  };
  input.dispose();
  return facts;
}

describe('joinMp4', () => {
  it('joins clips end to end: durations add up, every packet is copied, each clip starts on its keyframe', async () => {
    const clip = fixtureMp4();
    const result = joined(await joinMp4([clip, clip.buffer.slice(0) as ArrayBuffer, new Blob([clip])]));

    expect(result.duration).toBeCloseTo(3 * FIXTURE.seconds, 6);
    expect(result.clips).toEqual([
      { start: 0, duration: 2 },
      { start: 2, duration: 2 },
      { start: 4, duration: 2 },
    ]);
    const back = await readBack(result.bytes);
    expect(Math.abs(back.videoDuration - 6)).toBeLessThan(FRAME);
    expect(back.codec).toBe('avc1.42c01e');
    expect(back.size).toEqual([320, 180]);
    expect(back.videoTimes).toHaveLength(3 * FIXTURE.frames);
    expect(back.keyTimes).toEqual([0, 2, 4]);
    // Each later clip's priming packet is left out, so the audio stays in step with the video.
    expect(back.audioPackets).toBe(FIXTURE.audioPackets + 2 * (FIXTURE.audioPackets - 1));
    expect(Math.abs(back.audioEnd - 6)).toBeLessThan(FRAME);
  });

  it('cuts at maxDuration on a frame boundary', async () => {
    const clip = fixtureMp4();
    const result = joined(await joinMp4([clip, clip, clip], { maxDuration: 5 }));

    expect(result.duration).toBeCloseTo(5, 6);
    expect(result.clips.map((c) => c.duration)).toEqual([2, 2, expect.closeTo(1, 6)]);
    const back = await readBack(result.bytes);
    expect(back.videoTimes).toHaveLength(2 * FIXTURE.frames + FIXTURE.frames / 2);
    expect(back.keyTimes).toEqual([0, 2, 4]);
    expect(Math.abs(back.videoDuration - 5)).toBeLessThan(1e-6);
    expect(back.audioEnd).toBeLessThanOrEqual(5 + FRAME);
  });

  it('reports progress, rising to 1', async () => {
    const seen: number[] = [];
    joined(await joinMp4([fixtureMp4(), fixtureMp4()], { onProgress: (f) => seen.push(f) }));

    expect(seen.at(-1)).toBe(1);
    expect(seen.length).toBeGreaterThan(3);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('refuses a clip of another size and codec, naming it, before writing anything', async () => {
    // avcC bytes 1 to 3 are the profile, constraints and level the codec string is made of.
    const other = await remuxedFixture({
      video: { codec: 'avc1.64001f', codedWidth: 1280, codedHeight: 720 },
      videoDescription: { 1: 0x64, 2: 0x00, 3: 0x1f },
    });
    const progress: number[] = [];
    const result = await joinMp4([fixtureMp4(), fixtureMp4(), other], { onProgress: (f) => progress.push(f) });

    expect(result).toEqual({
      ok: false,
      clip: 2,
      reason: 'video_codec',
      message: 'Clip 3 is 1280×720 avc1.64001f; clip 1 is 320×180 avc1.42c01e: they cannot be joined without re-encoding.',
      found: '1280×720 avc1.64001f',
      expected: '320×180 avc1.42c01e',
    });
    expect(progress).toEqual([]);
  });

  it('refuses a clip of the same codec string but other parameter sets (its frames would not decode)', async () => {
    // The last byte of the fixture's avcC is in its picture parameter set.
    const other = await remuxedFixture({ videoDescription: { 41: 0xc9 } });
    expect(await joinMp4([fixtureMp4(), other])).toMatchObject({ ok: false, clip: 1, reason: 'video_codec' });
  });

  it("keeps the audio after the audio already written when a clip's audio outlasts its video", async () => {
    const short = await remuxedFixture({ videoFrames: 27 });
    const result = joined(await joinMp4([short, fixtureMp4()]));

    expect(result.clips).toEqual([
      { start: 0, duration: expect.closeTo(1.8, 6) },
      { start: expect.closeTo(1.8, 6), duration: 2 },
    ]);
    const back = await readBack(result.bytes);
    expect(back.audioTimes).toEqual([...back.audioTimes].sort((a, b) => a - b));
    // The second clip's first packet waits for the whole of the first clip's last one (1024 samples),
    // rather than overlapping it, which would cut that packet short.
    const seam = back.audioTimes.findIndex((t) => t >= 1.8 - 1e-6);
    expect(back.audioTimes[seam]! - back.audioTimes[seam - 1]!).toBeGreaterThanOrEqual(1024 / 44100 - 1e-6);
    expect(Math.abs(back.audioEnd - 3.8)).toBeLessThan(FRAME);
  });

  it('refuses clips with and without audio, and clips whose audio differs', async () => {
    const silent = await remuxedFixture({ dropAudio: true });
    expect(await joinMp4([fixtureMp4(), silent])).toMatchObject({ ok: false, clip: 1, reason: 'audio_presence' });
    expect(await joinMp4([silent, fixtureMp4()])).toMatchObject({ ok: false, clip: 1, reason: 'audio_presence' });

    // AudioSpecificConfig 0x12 0x10: AAC-LC, 44.1 kHz, channel configuration 2.
    const stereo = await remuxedFixture({ audio: { numberOfChannels: 2 }, audioDescription: { 1: 0x10 } });
    expect(await joinMp4([fixtureMp4(), stereo])).toMatchObject({
      ok: false,
      clip: 1,
      reason: 'audio_codec',
      found: 'mp4a.40.2 44100 Hz 2 channels',
      expected: 'mp4a.40.2 44100 Hz mono',
    });
  });

  it('joins clips without audio', async () => {
    const silent = await remuxedFixture({ dropAudio: true });
    const result = joined(await joinMp4([silent, silent]));
    expect(result.duration).toBeCloseTo(4, 6);
  });

  it('refuses an empty list and a file that is not an MP4', async () => {
    expect(await joinMp4([])).toEqual({ ok: false, clip: null, reason: 'no_clips', message: 'There are no clips to join.' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(await joinMp4([fixtureMp4(), png])).toEqual({
      ok: false,
      clip: 1,
      reason: 'not_mp4',
      message: 'Clip 2 is not an MP4 file.',
    });
    // An MP4 cut short: its header promises what its bytes do not hold.
    const cut = fixtureMp4().slice(0, 2000);
    expect(await joinMp4([cut])).toMatchObject({ ok: false, clip: 0, reason: expect.stringMatching(/not_mp4|no_video/) });
  });

  it('prints the time to join six 5-second clips (goal: 2 s)', async () => {
    const five = joined(await joinMp4([fixtureMp4(), fixtureMp4(), fixtureMp4()], { maxDuration: 5 })).bytes;
    const began = performance.now();
    const result = joined(await joinMp4(Array.from({ length: 6 }, () => new Blob([five]))));
    const ms = performance.now() - began;
    // Printed, not asserted: a shared machine's timing is no test of the code.
    console.log(`mp4-join: six 5-second clips (${result.bytes.length} bytes) joined in ${ms.toFixed(0)} ms (goal 2000 ms)`);
    expect(result.duration).toBeCloseTo(30, 6);
  });
});
