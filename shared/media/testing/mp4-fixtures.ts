/**
 * MP4 clips for the join tests, made from the sandbox's fixture (test/fixtures/media/sample.mp4,
 * the bytes the sandbox embeds): the fixture itself, and copies whose declared format differs, so
 * that a refusal can be provoked without more binary fixtures.
 */
import { readFileSync } from 'node:fs';
import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  Mp4OutputFormat,
  Output,
} from 'mediabunny';

/** 2 s, 320×180, avc1.42c01e at 15 frames per second (one keyframe) + AAC 44.1 kHz mono. */
export const fixtureMp4 = (): Uint8Array<ArrayBuffer> =>
  new Uint8Array(readFileSync(new URL('../../../test/fixtures/media/sample.mp4', import.meta.url)));

export interface Remux {
  video?: Partial<VideoDecoderConfig>;
  audio?: Partial<AudioDecoderConfig>;
  /** Bytes of the decoder configuration records to overwrite, by offset (mediabunny reads the codec string and channels there). */
  videoDescription?: Record<number, number>;
  audioDescription?: Record<number, number>;
  dropAudio?: boolean;
  /** Keeps only the first n video frames, so that the audio runs longer than the video. */
  videoFrames?: number;
}

function patched(config: VideoDecoderConfig | AudioDecoderConfig, bytes: Record<number, number> | undefined) {
  if (bytes === undefined) return {};
  const description = new Uint8Array(config.description as Uint8Array);
  for (const [at, value] of Object.entries(bytes)) description[Number(at)] = value;
  return { description };
}

/** The fixture's packets rewritten under another declared format (what a join compares). */
export async function remuxedFixture(change: Remux): Promise<Uint8Array> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fixtureMp4()) });
  const video = (await input.getPrimaryVideoTrack())!;
  const audio = change.dropAudio === true ? null : await input.getPrimaryAudioTrack();
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const videoSource = new EncodedVideoPacketSource('avc');
  const audioSource = new EncodedAudioPacketSource('aac');
  output.addVideoTrack(videoSource);
  if (audio !== null) output.addAudioTrack(audioSource);
  await output.start();
  const videoConfig = (await video.getDecoderConfig())!;
  let meta: { decoderConfig: VideoDecoderConfig } | undefined = {
    decoderConfig: { ...videoConfig, ...change.video, ...patched(videoConfig, change.videoDescription) },
  };
  let frames = 0;
  for await (const packet of new EncodedPacketSink(video).packets()) {
    if ((frames += 1) > (change.videoFrames ?? Infinity)) break;
    await videoSource.add(packet, meta);
    meta = undefined;
  }
  if (audio !== null) {
    const audioConfig = (await audio.getDecoderConfig())!;
    let audioMeta: { decoderConfig: AudioDecoderConfig } | undefined = {
      decoderConfig: { ...audioConfig, ...change.audio, ...patched(audioConfig, change.audioDescription) },
    };
    for await (const packet of new EncodedPacketSink(audio).packets()) {
      await audioSource.add(packet, audioMeta);
      audioMeta = undefined;
    }
  }
  await output.finalize();
  input.dispose();
  return new Uint8Array(target.buffer!);
}
