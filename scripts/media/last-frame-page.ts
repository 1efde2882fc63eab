/**
 * Runs in Chromium for scripts/last-frame.ts: decodes the last frame of the sandbox's fixture and of
 * the fixture joined to itself by shared/media/mp4-join.ts (which also shows the join runs in a
 * browser), and answers the fixture's last frame as a PNG, with whether the two frames agree.
 */
import { ALL_FORMATS, BufferSource, Input, VideoSampleSink } from 'mediabunny';
import { joinMp4 } from '../../shared/media/mp4-join';

interface Frame {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
  png: Blob;
}

async function lastFrame(bytes: Uint8Array): Promise<Frame> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const track = (await input.getPrimaryVideoTrack())!;
  const sample = (await new VideoSampleSink(track).getSample(Infinity))!;
  const [width, height] = [sample.codedWidth, sample.codedHeight];
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  sample.draw(context, 0, 0);
  sample.close();
  input.dispose();
  return { width, height, rgba: context.getImageData(0, 0, width, height).data, png: await canvas.convertToBlob({ type: 'image/png' }) };
}

async function run(base64: string) {
  const fixture = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const joined = await joinMp4([fixture, fixture]);
  if (!joined.ok) throw new Error(`join refused in the browser: ${joined.message}`);
  const [own, ofJoined] = [await lastFrame(fixture), await lastFrame(joined.bytes)];
  const agree = own.width === ofJoined.width && own.height === ofJoined.height && own.rgba.every((v, i) => v === ofJoined.rgba[i]);
  const png = new Uint8Array(await own.png.arrayBuffer());
  let binary = '';
  for (const byte of png) binary += String.fromCharCode(byte);
  return { width: own.width, height: own.height, joinedSeconds: joined.duration, agree, png: btoa(binary) };
}

(globalThis as unknown as { lastFrameOfFixture: typeof run }).lastFrameOfFixture = run;
