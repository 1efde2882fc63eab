/**
 * Joins MP4 clips into one MP4 without re-encoding: every clip's packets are copied, in order, into
 * one video track and one audio track. The clips are checked first (mp4-clips.ts), so a join either
 * writes a whole file or refuses before writing anything. Runs in Node, workerd and the browser.
 */
import {
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Mp4OutputFormat,
  Output,
  type AudioCodec,
  type EncodedPacket,
  type VideoCodec,
} from 'mediabunny';
import { compareClips, openClip, refusal, type JoinRefusal, type Mp4Clip, type OpenedClip } from './mp4-clips';

export type { JoinRefusal, JoinRefusalReason, Mp4Clip } from './mp4-clips';

export interface JoinOptions {
  /** Called with the share written so far, from 0 to 1 (1 once the file is complete). */
  onProgress?: (fraction: number) => void;
  /**
   * Ends the joined video at this many seconds: frames presented from then on are left out (so the
   * cut is at a frame boundary) and so are later clips. Without B-frames nothing else is lost.
   */
  maxDuration?: number;
}

export interface JoinedMp4 {
  ok: true;
  bytes: Uint8Array<ArrayBuffer>;
  /** Seconds of video in the joined file. */
  duration: number;
  /** Where each clip starts in the joined file and how long it lasts there, in seconds. */
  clips: Array<{ start: number; duration: number }>;
}

export type JoinResult = JoinedMp4 | JoinRefusal;

// Packet timestamps are exact to the track's timescale; this absorbs floating-point sums.
const EPSILON = 1e-6;

interface Tracks {
  video: EncodedVideoPacketSource;
  audio: EncodedAudioPacketSource | null;
  /** The first packet of each track carries the decoder configuration. */
  videoConfigured: boolean;
  audioConfigured: boolean;
  /** Where the audio written so far ends: the next clip's audio starts there or later. */
  audioEnd: number;
}

/** Joins `clips` in order; a refusal (nothing written) names the first clip that does not fit. */
export async function joinMp4(clips: readonly Mp4Clip[], options: JoinOptions = {}): Promise<JoinResult> {
  if (clips.length === 0) return refusal(null, 'no_clips', 'There are no clips to join.');
  const opened: OpenedClip[] = [];
  try {
    for (const [index, clip] of clips.entries()) {
      const clipOrRefusal = await openClip(clip, index);
      if ('ok' in clipOrRefusal) return clipOrRefusal;
      opened.push(clipOrRefusal);
      const first = opened[0] as OpenedClip;
      const mismatch = index === 0 ? null : compareClips(first, clipOrRefusal, index);
      if (mismatch !== null) return mismatch;
    }
    return await write(opened, options);
  } finally {
    for (const clip of opened) clip.input.dispose();
  }
}

async function write(opened: OpenedClip[], options: JoinOptions): Promise<JoinResult> {
  const first = opened[0] as OpenedClip;
  const limit = options.maxDuration ?? Infinity;
  const total = Math.min(limit, opened.reduce((sum, clip) => sum + clip.videoDuration, 0));
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const tracks: Tracks = {
    video: new EncodedVideoPacketSource((await first.video.getCodec()) as VideoCodec),
    audio: first.audio === null ? null : new EncodedAudioPacketSource((await first.audio.getCodec()) as AudioCodec),
    videoConfigured: false,
    audioConfigured: false,
    audioEnd: -Infinity,
  };
  output.addVideoTrack(tracks.video);
  if (tracks.audio !== null) output.addAudioTrack(tracks.audio);
  await output.start();

  let reported = -1;
  const progress = (at: number) => {
    // At most one call per percent: a long join must not flood a UI with updates.
    const fraction = Math.min(0.99, Math.floor((at / total) * 100) / 100);
    if (fraction > reported) {
      reported = fraction;
      options.onProgress?.(fraction);
    }
  };
  progress(0);

  const placed: JoinedMp4['clips'] = [];
  let start = 0;
  for (const [index, clip] of opened.entries()) {
    if (start >= limit - EPSILON) break;
    try {
      const end = await copyClip(clip, start, limit, tracks, progress);
      placed.push({ start, duration: end - start });
      start = end;
    } catch (error) {
      await output.cancel();
      const detail = error instanceof Error ? error.message : String(error);
      return refusal(index, 'not_mp4', `Clip ${index + 1} could not be copied: ${detail}`);
    }
  }
  await output.finalize();
  options.onProgress?.(1);
  return { ok: true, bytes: new Uint8Array(target.buffer as ArrayBuffer), duration: start, clips: placed };
}

/**
 * Copies one clip's packets, video and audio interleaved by time, with its video starting at
 * `start`; answers where its video ends. The audio keeps to one rule: never before the audio
 * already written (mediabunny refuses a timestamp below the previous one's).
 */
async function copyClip(
  clip: OpenedClip,
  start: number,
  limit: number,
  tracks: Tracks,
  progress: (at: number) => void,
): Promise<number> {
  const videoShift = start - clip.videoFirst;
  const videoPackets = new EncodedPacketSink(clip.video).packets();
  const audioPackets = clip.audio === null ? null : new EncodedPacketSink(clip.audio).packets();
  let videoEnd = start;
  let audioShift: number | null = null;
  let nextVideo = await take(videoPackets);
  let nextAudio = audioPackets === null ? null : await take(audioPackets);

  while (nextVideo !== null || nextAudio !== null) {
    const videoAt = nextVideo === null ? Infinity : nextVideo.timestamp + videoShift;
    const audioAt = nextAudio === null ? Infinity : nextAudio.timestamp + start;
    if (nextVideo !== null && videoAt <= audioAt) {
      if (videoAt >= limit - EPSILON) {
        // Past the cut: this frame and every later one in decode order are left out.
        nextVideo = null;
        continue;
      }
      const packet = nextVideo.clone({ timestamp: videoAt });
      await tracks.video.add(packet, tracks.videoConfigured ? undefined : { decoderConfig: (await clip.video.getDecoderConfig())! });
      tracks.videoConfigured = true;
      videoEnd = Math.max(videoEnd, videoAt + packet.duration);
      progress(videoEnd);
      nextVideo = await take(videoPackets);
      continue;
    }
    const audio = nextAudio as EncodedPacket;
    nextAudio = await take(audioPackets!);
    // Stop the audio where the video stops (a packet may overhang it by less than its length).
    if (audioAt >= Math.min(limit, start + clip.videoDuration) - EPSILON) continue;
    if (audioShift === null) {
      // A later clip's priming packets (ending at or before its own zero, never meant to be heard)
      // are dropped; the previous clip's last packet gives the decoder its overlap instead.
      if (tracks.audioConfigured && audio.timestamp + audio.duration <= EPSILON) continue;
      audioShift = Math.max(start, tracks.audioEnd - audio.timestamp);
    }
    const at = Math.max(audio.timestamp + audioShift, tracks.audioEnd);
    await tracks.audio!.add(
      audio.clone({ timestamp: at }),
      tracks.audioConfigured ? undefined : { decoderConfig: (await clip.audio!.getDecoderConfig())! },
    );
    tracks.audioConfigured = true;
    tracks.audioEnd = at + audio.duration;
  }
  return videoEnd;
}

async function take(packets: AsyncGenerator<EncodedPacket, void, unknown>): Promise<EncodedPacket | null> {
  const next = await packets.next();
  return next.done === true ? null : next.value;
}
