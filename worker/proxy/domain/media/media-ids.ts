/**
 * Names in the media store. Every object lives under its member: `uploads/<member>/<id>` for an
 * upload, `outputs/<member>/<task id>` for a kept output and `outputs/<member>/<task id>.last-frame`
 * for its last frame. A media id says which, and whose: `u-<member>-<random>`, `o-<member>-<task id>`
 * or `f-<member>-<task id>`, so that `/media/<id>` finds its object with no lookup, and a member's
 * routes can tell their own ids from others' by the id alone.
 */

export type MediaId = { kind: 'upload' | 'output' | 'frame'; member: string; name: string };

const ID = /^([uof])-(m[0-9a-f]{16})-([A-Za-z0-9_-]{1,100})$/;
const KINDS = { u: 'upload', o: 'output', f: 'frame' } as const;

export function parseMediaId(id: string): MediaId | null {
  const match = id.length <= 140 ? ID.exec(id) : null;
  if (!match) return null;
  return { kind: KINDS[match[1] as keyof typeof KINDS], member: match[2]!, name: match[3]! };
}

const TASK_NAME = /^[A-Za-z0-9_-]{1,100}$/;
export const uploadId = (member: string, random: string): string => `u-${member}-${random}`;
export const outputId = (member: string, taskId: string): string | null => (TASK_NAME.test(taskId) ? `o-${member}-${taskId}` : null);
export const lastFrameId = (member: string, taskId: string): string | null => (TASK_NAME.test(taskId) ? `f-${member}-${taskId}` : null);

/** The R2 key of a media id. A last frame sits beside its video, under `outputs/`, so that the cleanup of outputs takes both. */
export function objectKey(id: MediaId): string {
  if (id.kind === 'upload') return `uploads/${id.member}/u-${id.member}-${id.name}`;
  return `outputs/${id.member}/${id.name}${id.kind === 'frame' ? '.last-frame' : ''}`;
}

export const uploadsPrefix = (member?: string): string => (member ? `uploads/${member}/` : 'uploads/');
export const outputsPrefix = (member?: string): string => (member ? `outputs/${member}/` : 'outputs/');

/**
 * List options that return each object's metadata (R2 leaves it out unless asked; the installed
 * workers-types do not declare `include` yet).
 * @see https://developers.cloudflare.com/r2/api/workers/workers-api-reference/#r2listoptions
 */
export const withMetadata = (options: R2ListOptions): R2ListOptions => ({ ...options, include: ['httpMetadata', 'customMetadata'] }) as R2ListOptions;
