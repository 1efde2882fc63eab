import * as v from 'valibot';

/**
 * The `arkbridge` object the proxy appends to its task answers (`POST /v1/video/generations`,
 * `GET /v1/video/generations/{id}`): the task's cost, and the proxy's kept copy of the video and of
 * its last frame (docs/media-store.md). The proxy writes it; its clients read it with this schema (unknown fields
 * ignored, so that a later proxy may add some).
 */

/** Longest kept-copy address read (the proxy's signed `/media/...` addresses are far shorter). */
export const KEPT_URL_MAX = 2048;
/** Longest `keepError` read. */
export const KEEP_ERROR_MAX = 500;
export const KEEP_STATES = ['pending', 'failed', 'deleted'] as const;
export type KeepState = (typeof KEEP_STATES)[number];

const isWebUrl = (value: string): boolean => {
  if (!/^https?:\/\/[^/\s]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

const keptAddress = v.pipe(v.string(), v.maxLength(KEPT_URL_MAX), v.check(isWebUrl, 'must be an https:// or http:// URL'));

export const arkbridgeFieldSchema = v.object({
  /** What the task costs (reserved while running, charged at the end), in `currency`. */
  cost: v.pipe(v.number(), v.finite(), v.minValue(0)),
  /** What was reserved before the create (the most the task could cost); absent from an older proxy. */
  estimate: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
  currency: v.pipe(v.string(), v.minLength(1), v.maxLength(16)),
  /** false: the model has no price (cost 0). */
  priced: v.boolean(),
  /** Only for a task older than the service keeps: the proxy stopped following it. */
  tracking: v.optional(v.literal('expired')),
  /** A signed address of the proxy's copy of the video, fresh in each answer (valid up to a day). */
  keptUrl: v.optional(keptAddress),
  /** The same for the video's last frame (a PNG), when the create asked `return_last_frame`; kept and deleted with the video. */
  keptLastFrameUrl: v.optional(keptAddress),
  /** Unix seconds: the copy is kept until then. */
  keptUntil: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** The copy is not (yet) there: being made, could not be made, or deleted. */
  keep: v.optional(v.picklist(KEEP_STATES)),
  /** Why the copy could not be made (with `keep: 'failed'`), a sentence. */
  keepError: v.optional(v.pipe(v.string(), v.maxLength(KEEP_ERROR_MAX))),
});

export type ArkbridgeField = v.InferOutput<typeof arkbridgeFieldSchema>;
