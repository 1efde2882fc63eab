import { joinMp4 } from '../../../shared/media/mp4-join';
import { resultVideo } from './files';

/** Seconds of the embedded fixture: 30 frames at 15 per second, one keyframe, then AAC audio. */
export const FIXTURE_SECONDS = 2;

/** Videos already made, per length, for this isolate: a length is joined once. */
const made = new Map<number, Promise<Uint8Array>>();

async function joined(clips: Uint8Array[], maxDuration?: number): Promise<Uint8Array> {
  const result = await joinMp4(clips, maxDuration === undefined ? {} : { maxDuration });
  if (!result.ok) throw new Error(`the sandbox's fixture could not be joined: ${result.message}`);
  return result.bytes;
}

/**
 * A video of `seconds` made of the fixture played again and again, copied (not re-encoded). A
 * length that is not a multiple of the fixture's starts with a shortened copy, cut at a frame
 * boundary after its keyframe: every copy starts on a keyframe, so the whole stays decodable, and
 * the video always ends on the fixture's own last frame (the last frame the sandbox serves).
 */
export function videoOfLength(seconds: number): Promise<Uint8Array> {
  const known = made.get(seconds);
  if (known) return known;
  const build = (async () => {
    const whole = Math.floor(seconds / FIXTURE_SECONDS + 1e-9);
    const rest = seconds - whole * FIXTURE_SECONDS;
    const clips: Uint8Array[] = Array.from({ length: whole }, () => resultVideo);
    if (rest > 1e-6) clips.unshift(await joined([resultVideo], rest));
    return clips.length === 1 && rest <= 1e-6 ? resultVideo : joined(clips);
  })();
  // A failure is not kept: the next request tries again.
  build.catch(() => made.delete(seconds));
  made.set(seconds, build);
  return build;
}
