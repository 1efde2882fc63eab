import { joinMp4 } from '../../../shared/media/mp4-join';
import { mediaOfSize } from './files';

/** Seconds of the embedded clips (every size's and the fixture's): 30 frames at 15 per second, one keyframe, then AAC audio. */
export const FIXTURE_SECONDS = 2;

/** Videos already made, per size and length, for this isolate: each is joined once. */
const made = new Map<string, Promise<Uint8Array>>();
/** Videos kept at most (18 sizes x dozens of lengths would hold tens of MB): the oldest goes first. */
export const MADE_MAX = 32;

async function joined(clips: Uint8Array[], maxDuration?: number): Promise<Uint8Array> {
  const result = await joinMp4(clips, maxDuration === undefined ? {} : { maxDuration });
  if (!result.ok) throw new Error(`the sandbox's fixture could not be joined: ${result.message}`);
  return result.bytes;
}

/**
 * A video of `seconds` at `size` ('<width>x<height>'; null: 320x180), made of that size's 2 s clip
 * (files.ts; the fixture for 320x180) played again and again, copied (not re-encoded). A length
 * that is not a multiple of the clip's starts with a shortened copy, cut at a frame boundary after its keyframe: every copy
 * starts on a keyframe, so the whole stays decodable, and the video always ends on the clip's own
 * last frame (the last frame the sandbox serves).
 */
export function videoOfLength(seconds: number, size: string | null = null): Promise<Uint8Array> {
  const key = `${size}/${seconds}`;
  const known = made.get(key);
  if (known) return known;
  const clip = mediaOfSize(size).video;
  const build = (async () => {
    const whole = Math.floor(seconds / FIXTURE_SECONDS + 1e-9);
    const rest = seconds - whole * FIXTURE_SECONDS;
    const clips: Uint8Array[] = Array.from({ length: whole }, () => clip);
    if (rest > 1e-6) clips.unshift(await joined([clip], rest));
    return clips.length === 1 && rest <= 1e-6 ? clip : joined(clips);
  })();
  // A failure is not kept: the next request tries again.
  build.catch(() => made.get(key) === build && made.delete(key));
  if (made.size >= MADE_MAX) made.delete(made.keys().next().value!);
  made.set(key, build);
  return build;
}
