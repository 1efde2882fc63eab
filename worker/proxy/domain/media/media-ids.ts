/**
 * Names in the media store. Every object lives under its member: `uploads/<member>/<id>` for an
 * upload, `outputs/<member>/<task id>` for a kept output. A media id says which, and whose:
 * `u-<member>-<random>` or `o-<member>-<task id>`, so that `/media/<id>` finds its object with no
 * lookup, and a member's routes can tell their own ids from others' by the id alone.
 */

export type MediaId = { kind: 'upload'; member: string; name: string } | { kind: 'output'; member: string; name: string };

const ID = /^([uo])-(m[0-9a-f]{16})-([A-Za-z0-9_-]{1,100})$/;

export function parseMediaId(id: string): MediaId | null {
  const match = id.length <= 140 ? ID.exec(id) : null;
  if (!match) return null;
  return { kind: match[1] === 'u' ? 'upload' : 'output', member: match[2]!, name: match[3]! };
}

export const uploadId = (member: string, random: string): string => `u-${member}-${random}`;
export const outputId = (member: string, taskId: string): string | null => (/^[A-Za-z0-9_-]{1,100}$/.test(taskId) ? `o-${member}-${taskId}` : null);

/** The R2 key of a media id. */
export const objectKey = (id: MediaId): string => `${id.kind === 'upload' ? 'uploads' : 'outputs'}/${id.member}/${id.kind === 'upload' ? `u-${id.member}-${id.name}` : id.name}`;

export const uploadsPrefix = (member?: string): string => (member ? `uploads/${member}/` : 'uploads/');
export const outputsPrefix = (member?: string): string => (member ? `outputs/${member}/` : 'outputs/');

/**
 * List options that return each object's metadata (R2 leaves it out unless asked; the installed
 * workers-types do not declare `include` yet).
 * @see https://developers.cloudflare.com/r2/api/workers/workers-api-reference/#r2listoptions
 */
export const withMetadata = (options: R2ListOptions): R2ListOptions => ({ ...options, include: ['httpMetadata', 'customMetadata'] }) as R2ListOptions;
