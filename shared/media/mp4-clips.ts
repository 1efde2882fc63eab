/**
 * What mp4-join needs to know of each clip before writing anything: opened with mediabunny, its
 * video and audio tracks described, and whether it can follow the first clip without re-encoding.
 * No Node or DOM API: it runs in Node, workerd (the sandbox's videos) and the browser (checked in
 * Chromium by scripts/last-frame.ts).
 */
import {
  BlobSource,
  BufferSource,
  Input,
  MP4,
  QTFF,
  type InputAudioTrack,
  type InputVideoTrack,
} from 'mediabunny';

/** A clip as the caller holds it; a Blob is read in parts, never whole. */
export type Mp4Clip = Blob | ArrayBuffer | Uint8Array;

/** Why clips cannot be joined; the extension words each reason in its own language. */
export type JoinRefusalReason =
  | 'no_clips'
  | 'not_mp4'
  | 'no_video'
  | 'unsupported_codec'
  | 'video_codec'
  | 'audio_codec'
  | 'audio_presence';

export interface JoinRefusal {
  ok: false;
  /** 0-based index of the first clip that differs or fails; null when there is no clip. */
  clip: number | null;
  reason: JoinRefusalReason;
  /** The same facts in plain English, for logs; not a UI string. */
  message: string;
  /** The clip's own format and the first clip's, e.g. '1280×720 avc1.64001f' (when compared). */
  found?: string;
  expected?: string;
}

export interface OpenedClip {
  input: Input;
  video: InputVideoTrack;
  audio: InputAudioTrack | null;
  videoFacts: VideoFacts;
  audioFacts: AudioFacts | null;
  /** Presentation span of the video track, from its first timestamp to its last frame's end. */
  videoFirst: number;
  videoDuration: number;
}

interface VideoFacts {
  codec: string;
  width: number;
  height: number;
  /** The decoder's configuration record (avcC, hvcC...): clips encoded differently cannot share one. */
  description: Uint8Array | null;
}

interface AudioFacts {
  codec: string;
  sampleRate: number;
  channels: number;
  description: Uint8Array | null;
}

export function refusal(
  clip: number | null,
  reason: JoinRefusalReason,
  message: string,
  found?: string,
  expected?: string,
): JoinRefusal {
  return { ok: false, clip, reason, message, ...(found === undefined ? {} : { found }), ...(expected === undefined ? {} : { expected }) };
}

// Bytes are told apart from a Blob, not the other way round: a Blob (or File) from another window
// fails `instanceof Blob` here.
function sourceOf(clip: Mp4Clip): BlobSource | BufferSource {
  return clip instanceof ArrayBuffer || ArrayBuffer.isView(clip) ? new BufferSource(clip) : new BlobSource(clip);
}

// `unknown`: the Workers' types have no WebCodecs, so the decoder config's type is not known there.
function bytesOf(description: unknown): Uint8Array | null {
  if (ArrayBuffer.isView(description)) return new Uint8Array(description.buffer, description.byteOffset, description.byteLength);
  if (description instanceof ArrayBuffer) return new Uint8Array(description);
  return null;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Opens one clip; a refusal if it is not an MP4/QuickTime file with a video track mediabunny knows. */
export async function openClip(clip: Mp4Clip, index: number): Promise<OpenedClip | JoinRefusal> {
  const input = new Input({ formats: [MP4, QTFF], source: sourceOf(clip) });
  const n = index + 1;
  try {
    if (!(await input.canRead())) {
      input.dispose();
      return refusal(index, 'not_mp4', `Clip ${n} is not an MP4 file.`);
    }
    const video = await input.getPrimaryVideoTrack();
    if (video === null) {
      input.dispose();
      return refusal(index, 'no_video', `Clip ${n} has no video track.`);
    }
    const audio = await input.getPrimaryAudioTrack();
    const videoConfig = await video.getDecoderConfig();
    const audioConfig = audio === null ? null : await audio.getDecoderConfig();
    if (videoConfig === null || (audio !== null && audioConfig === null)) {
      input.dispose();
      return refusal(index, 'unsupported_codec', `Clip ${n} uses a codec that cannot be copied into an MP4 file.`);
    }
    const videoFirst = await video.getFirstTimestamp();
    return {
      input,
      video,
      audio,
      videoFacts: {
        codec: videoConfig.codec,
        width: await video.getCodedWidth(),
        height: await video.getCodedHeight(),
        description: bytesOf(videoConfig.description),
      },
      audioFacts:
        audioConfig === null
          ? null
          : {
              codec: audioConfig.codec,
              sampleRate: audioConfig.sampleRate,
              channels: audioConfig.numberOfChannels,
              description: bytesOf(audioConfig.description),
            },
      videoFirst,
      videoDuration: (await video.computeDuration()) - videoFirst,
    };
  } catch {
    // A file that starts like an MP4 but whose boxes are broken.
    input.dispose();
    return refusal(index, 'not_mp4', `Clip ${n} could not be read as an MP4 file.`);
  }
}

const describeVideo = (f: VideoFacts) => `${f.width}×${f.height} ${f.codec}`;
const describeAudio = (f: AudioFacts | null) =>
  f === null ? 'no audio' : `${f.codec} ${f.sampleRate} Hz ${f.channels === 1 ? 'mono' : `${f.channels} channels`}`;

/** Whether `clip` can follow `first` by copying its packets: null if it can, else why not. */
export function compareClips(first: OpenedClip, clip: OpenedClip, index: number): JoinRefusal | null {
  const n = index + 1;
  const tail = 'they cannot be joined without re-encoding.';
  const [v1, v] = [first.videoFacts, clip.videoFacts];
  if (v.codec !== v1.codec || v.width !== v1.width || v.height !== v1.height) {
    const [found, expected] = [describeVideo(v), describeVideo(v1)];
    return refusal(index, 'video_codec', `Clip ${n} is ${found}; clip 1 is ${expected}: ${tail}`, found, expected);
  }
  if (!sameBytes(v.description, v1.description)) {
    // Same codec string but other parameter sets (SPS/PPS): one sample description cannot serve both.
    const found = `${describeVideo(v)} (other encoder parameters)`;
    return refusal(index, 'video_codec', `Clip ${n} is ${found} than clip 1: ${tail}`, found, describeVideo(v1));
  }
  const [a1, a] = [first.audioFacts, clip.audioFacts];
  if ((a1 === null) !== (a === null)) {
    const [found, expected] = [a === null ? 'no audio' : 'audio', a1 === null ? 'no audio' : 'audio'];
    return refusal(index, 'audio_presence', `Clip ${n} has ${found}; clip 1 has ${expected}: ${tail}`, found, expected);
  }
  if (a1 !== null && a !== null) {
    const differs = a.codec !== a1.codec || a.sampleRate !== a1.sampleRate || a.channels !== a1.channels;
    if (differs || !sameBytes(a.description, a1.description)) {
      const [found, expected] = [describeAudio(a), describeAudio(a1)];
      return refusal(index, 'audio_codec', `Clip ${n} has ${found} audio; clip 1 has ${expected}: ${tail}`, found, expected);
    }
  }
  return null;
}
