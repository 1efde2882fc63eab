import * as v from 'valibot';
import { strictObjectMessage } from '../validation';

/** The `/v1/video/generations` create body and its content elements, as the service defines them. */

const UNKNOWN = 'is not a field the service defines here';
const strict = <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries, strictObjectMessage(UNKNOWN));
const str = v.string('must be a string');
const int = v.pipe(v.number('must be an integer'), v.integer('must be an integer'));
const bool = v.boolean('must be true or false');
const urlHolder = strict({ url: v.pipe(str, v.nonEmpty('must not be empty')) });

export const IMAGE_ROLES = ['reference_image', 'first_frame', 'last_frame'] as const;
export type ImageRole = (typeof IMAGE_ROLES)[number];

export const textElement = strict({ type: v.literal('text'), text: str });
export const imageElement = strict({
  type: v.literal('image_url'),
  image_url: urlHolder,
  role: v.picklist(IMAGE_ROLES, `must be one of ${IMAGE_ROLES.join(', ')}`),
});
export const videoElement = strict({
  type: v.literal('video_url'),
  video_url: urlHolder,
  role: v.literal('reference_video', 'must be reference_video'),
});
export const audioElement = strict({
  type: v.literal('audio_url'),
  audio_url: urlHolder,
  role: v.literal('reference_audio', 'must be reference_audio'),
});

export const contentElement = v.variant(
  'type',
  [textElement, imageElement, videoElement, audioElement],
  'must be text, image_url, video_url or audio_url',
);

export const videoCreateSchema = strict({
  model: v.pipe(str, v.nonEmpty('must name a model')),
  content: v.optional(v.array(contentElement, 'must be a list of content elements')),
  prompt: v.optional(str),
  image: v.optional(v.pipe(str, v.nonEmpty('must not be empty'))),
  images: v.optional(v.array(v.pipe(str, v.nonEmpty('must not be empty')), 'must be a list of URLs')),
  resolution: v.optional(str),
  ratio: v.optional(str),
  duration: v.optional(int),
  frames: v.optional(int),
  seed: v.optional(int),
  generate_audio: v.optional(bool),
  draft: v.optional(bool),
  callback_url: v.optional(str),
  return_last_frame: v.optional(bool),
  watermark: v.optional(bool),
  camera_fixed: v.optional(bool),
  service_tier: v.optional(str),
  priority: v.optional(int),
});

export type ContentElement = v.InferOutput<typeof contentElement>;
export type VideoCreateBody = v.InferOutput<typeof videoCreateSchema>;

/** The optional generation parameters (everything except model, inputs and references). */
export const GENERATION_PARAMETERS = [
  'resolution',
  'ratio',
  'duration',
  'frames',
  'seed',
  'generate_audio',
  'draft',
  'callback_url',
  'return_last_frame',
  'watermark',
  'camera_fixed',
  'service_tier',
  'priority',
] as const;
export type GenerationParameter = (typeof GENERATION_PARAMETERS)[number];
