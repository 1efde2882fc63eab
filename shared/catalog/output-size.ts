import { outputFrames, type PricedRequest } from '../gateway/prices';
import { modelSpec } from './models';

/**
 * The pixel size of the videos the Seedance models make, per resolution and ratio, and the
 * output tokens of a task from it. The service bills a task by these tokens (its list prices are
 * per million of them) and reports them on a completed task as `usage.completion_tokens`:
 * width x height x frames / 1024, rounded down, at 24 frames per second.
 */

export interface OutputSize {
  width: number;
  height: number;
}

/** The ratio used for `adaptive` (the model picks), an absent ratio, or one the table does not know. */
export const DEFAULT_OUTPUT_RATIO = '16:9';

const size = (width: number, height: number): OutputSize => ({ width, height });

/** Width x height by resolution, then ratio, as the service makes them (every side a multiple of 16). */
export const OUTPUT_SIZES: Readonly<Record<string, Readonly<Record<string, OutputSize>>>> = {
  '480p': { '16:9': size(864, 480), '4:3': size(736, 544), '1:1': size(640, 640), '3:4': size(544, 736), '9:16': size(480, 864), '21:9': size(960, 416) },
  '720p': { '16:9': size(1248, 704), '4:3': size(1120, 832), '1:1': size(960, 960), '3:4': size(832, 1120), '9:16': size(704, 1248), '21:9': size(1504, 640) },
  '1080p': { '16:9': size(1920, 1088), '4:3': size(1664, 1248), '1:1': size(1440, 1440), '3:4': size(1248, 1664), '9:16': size(1088, 1920), '21:9': size(2176, 928) },
};

/**
 * The output size at a resolution and ratio; `adaptive`, an absent or an unknown ratio is 16:9.
 * Undefined for a resolution the table does not list.
 */
export function outputSize(resolution: string, ratio?: string | null): OutputSize | undefined {
  const byRatio = Object.hasOwn(OUTPUT_SIZES, resolution) ? OUTPUT_SIZES[resolution]! : undefined;
  if (!byRatio) return undefined;
  return ratio && Object.hasOwn(byRatio, ratio) ? byRatio[ratio]! : byRatio[DEFAULT_OUTPUT_RATIO]!;
}

/** What a create asks for that its output tokens depend on. */
export interface TokenRequest extends PricedRequest {
  ratio?: string | undefined;
}

/**
 * The size of the video a create makes: its resolution (one the table does not list, or none: the
 * model's default) at its ratio (`adaptive`, none or an unknown one: 16:9; the service would pick
 * from a first-frame image, which is not decoded here). Undefined when no resolution is known.
 */
export function createOutputSize(request: Pick<TokenRequest, 'model' | 'resolution' | 'ratio'>): OutputSize | undefined {
  const given = request.resolution == null ? undefined : outputSize(request.resolution, request.ratio);
  const fallback = modelSpec(request.model).defaults?.resolution;
  return given ?? (fallback === undefined ? undefined : outputSize(fallback, request.ratio));
}

/**
 * The output tokens of a task, as the service bills and reports them (`usage.completion_tokens`):
 * width x height x frames / 1024, rounded down, at the create's size (createOutputSize; 0 when it
 * has none). Frames as `outputFrames` counts them (duration x 24; else frames; else the model's
 * default duration; the longest for -1).
 */
export function completionTokens(request: TokenRequest): number {
  const dims = createOutputSize(request);
  if (!dims) return 0;
  return Math.floor((dims.width * dims.height * outputFrames(request)) / 1024);
}
