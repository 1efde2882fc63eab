import type { GenerationParameter } from '../video/schemas';

/**
 * The model capability catalog: what each video model accepts. The service does not publish
 * these facts; they were gathered from the vendor's model pages (late 2026) and are kept here as data so
 * that one edit updates the proxy, the sandbox and the extension alike.
 */

/** How a request supplies pictures: none, a first frame, first and last frames, or references. */
export type InputMode = 'text' | 'first_frame' | 'first_last' | 'reference';

export type ParameterRule =
  | { type: 'enum'; values: readonly string[] }
  | { type: 'integer'; min: number; max: number; also?: readonly number[]; base?: number; step?: number }
  | { type: 'boolean'; default?: boolean };

/** A parameter the model supports, with cross-parameter conditions. */
export type ParameterSpec = ParameterRule & {
  /** Allowed only when these parameters have one of these values (when they are given). */
  onlyWith?: Partial<Record<GenerationParameter, readonly string[]>>;
  /** Not allowed together with these parameters. */
  notWith?: readonly GenerationParameter[];
  note?: string;
};

export interface ReferenceLimits {
  images: { min: number; max: number };
  videos: { max: number };
  audios: { max: number };
  /** At most this many reference files in all. */
  files: number;
  /** Reference audio needs at least one reference image or video. */
  audioNeedsVisual: boolean;
  /** Resolutions at which reference mode is available (all when absent). */
  resolutions?: readonly string[];
  note?: string;
}

export interface ModelSpec {
  id: string;
  label: string;
  modes: readonly InputMode[];
  parameters: Partial<Record<GenerationParameter, ParameterSpec>>;
  references: ReferenceLimits | null;
  /** `asset://` library references accepted. */
  assetRefs: boolean;
  /** Images may be sent inline as `data:image/<subtype>;base64,` URIs. */
  dataUriImages: boolean;
  /**
   * What the service uses when a create leaves resolution or duration out: a task is priced by
   * them (shared/gateway/prices.ts). Absent for a model the catalog does not know.
   */
  defaults?: { resolution: string; duration: number };
}

export const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'] as const;
export const SERVICE_TIERS = ['default', 'flex'] as const;

const ratio: ParameterSpec = { type: 'enum', values: RATIOS };
const seed: ParameterSpec = { type: 'integer', min: -1, max: 4294967295 };
const bool: ParameterSpec = { type: 'boolean' };
const resolutions = (...values: string[]): ParameterSpec => ({ type: 'enum', values });
const seconds = (min: number, max: number, also?: number[]): ParameterSpec =>
  also ? { type: 'integer', min, max, also } : { type: 'integer', min, max };
/** 29 to 289 frames, of the form 25 + 4n (24 fps). */
const frames: ParameterSpec = { type: 'integer', min: 29, max: 289, base: 25, step: 4, notWith: ['duration'] };
const serviceTier: ParameterSpec = { type: 'enum', values: SERVICE_TIERS };

const seedance1Params = { seed, ratio, watermark: bool, camera_fixed: bool };

const seedance2References: ReferenceLimits = {
  images: { min: 0, max: 9 },
  videos: { max: 3 },
  audios: { max: 3 },
  files: 12,
  audioNeedsVisual: true,
  note: 'Reference videos 2 to 15 s in total; reference audio at most 15 s.',
};

const seedance2Params = {
  seed,
  ratio,
  watermark: bool,
  generate_audio: { type: 'boolean', default: true } as ParameterSpec,
  return_last_frame: bool,
  service_tier: serviceTier,
};

export const MODELS: readonly ModelSpec[] = [
  {
    id: 'doubao-seedance-1-0-lite-t2v-250428',
    label: 'Seedance 1.0 Lite (text to video)',
    modes: ['text'],
    parameters: { resolution: resolutions('480p', '720p', '1080p'), duration: seconds(2, 12), frames, ...seedance1Params },
    references: null,
    assetRefs: false,
    dataUriImages: false,
    defaults: { resolution: '720p', duration: 5 },
  },
  {
    id: 'doubao-seedance-1-0-lite-i2v-250428',
    label: 'Seedance 1.0 Lite (image to video)',
    modes: ['first_frame', 'first_last', 'reference'],
    parameters: { resolution: resolutions('480p', '720p', '1080p'), duration: seconds(2, 12), frames, ...seedance1Params },
    references: {
      images: { min: 1, max: 4 },
      videos: { max: 0 },
      audios: { max: 0 },
      files: 4,
      audioNeedsVisual: false,
      resolutions: ['480p', '720p'],
      note: 'Reference images are not available at 1080p.',
    },
    assetRefs: false,
    dataUriImages: true,
    defaults: { resolution: '720p', duration: 5 },
  },
  {
    id: 'doubao-seedance-1-0-pro-250528',
    label: 'Seedance 1.0 Pro',
    modes: ['text', 'first_frame', 'first_last'],
    parameters: { resolution: resolutions('480p', '720p', '1080p'), duration: seconds(2, 12), frames, ...seedance1Params },
    references: null,
    assetRefs: false,
    dataUriImages: true,
    defaults: { resolution: '1080p', duration: 5 },
  },
  {
    id: 'doubao-seedance-1-0-pro-fast-251015',
    label: 'Seedance 1.0 Pro Fast',
    modes: ['text', 'first_frame'],
    parameters: { resolution: resolutions('480p', '720p', '1080p'), duration: seconds(2, 12), frames, ...seedance1Params },
    references: null,
    assetRefs: false,
    dataUriImages: true,
    defaults: { resolution: '1080p', duration: 5 },
  },
  {
    id: 'doubao-seedance-1-5-pro-251215',
    label: 'Seedance 1.5 Pro',
    modes: ['text', 'first_frame', 'first_last'],
    parameters: {
      resolution: resolutions('480p', '720p', '1080p'),
      duration: seconds(4, 12, [-1]),
      ...seedance1Params,
      generate_audio: bool,
      draft: { type: 'boolean', onlyWith: { resolution: ['480p'] }, notWith: ['return_last_frame'], note: 'Draft is 480p only.' },
      return_last_frame: bool,
      service_tier: serviceTier,
    },
    references: null,
    assetRefs: false,
    dataUriImages: true,
    defaults: { resolution: '720p', duration: 5 },
  },
  {
    id: 'doubao-seedance-2-0-260128',
    label: 'Seedance 2.0',
    modes: ['text', 'first_frame', 'first_last', 'reference'],
    parameters: { resolution: resolutions('480p', '720p', '1080p'), duration: seconds(4, 15), ...seedance2Params },
    references: seedance2References,
    assetRefs: true,
    dataUriImages: true,
    defaults: { resolution: '720p', duration: 5 },
  },
  {
    id: 'doubao-seedance-2-0-fast-260128',
    label: 'Seedance 2.0 Fast',
    modes: ['text', 'first_frame', 'first_last', 'reference'],
    parameters: { resolution: resolutions('480p', '720p'), duration: seconds(4, 15), ...seedance2Params },
    references: seedance2References,
    assetRefs: true,
    dataUriImages: true,
    defaults: { resolution: '720p', duration: 5 },
  },
];

/** What a model the catalog does not know may use: model and text, nothing else. */
export const unknownModel = (id: string): ModelSpec => ({
  id,
  label: id,
  modes: ['text'],
  parameters: {},
  references: null,
  assetRefs: false,
  dataUriImages: false,
});

const byId = new Map(MODELS.map((model) => [model.id, model]));

/** The catalog entry of a model id, or the text-only entry for an unknown id. */
export const modelSpec = (id: string): ModelSpec => byId.get(id) ?? unknownModel(id);

/** Whether the catalog knows this model id. */
export const isKnownModel = (id: string): boolean => byId.has(id);
