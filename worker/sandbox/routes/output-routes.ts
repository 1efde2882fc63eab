import type { Context } from 'hono';
import type { SandboxEnv } from '../env';
import { mediaOfSize, resultVideo, serveBytes } from '../media/files';
import { videoOfLength } from '../media/videos';
import type { TaskOutput } from '../state/tasks';
import { service } from './service-object';

type C = Context<{ Bindings: SandboxEnv }>;

/** The task's output, or the answer that there is none (404) or no longer any (410). */
async function outputOf(c: C, suffix: string, what: string): Promise<TaskOutput | Response> {
  const id = c.req.param('file')!.slice(0, -suffix.length);
  const output = await service(c.env).taskOutput(id);
  if (!output) return c.json({ error: 'not_found', message: `No completed video has this id.` }, 404);
  if (output.expired) return c.json({ error: 'expired', message: `This ${what} link has expired (24 hours after completion).` }, 410);
  return output;
}

/**
 * `/sandbox/videos/<task id>.mp4`: a video of the task's length and size (a task stored before
 * lengths were kept: the 2 s fixture; before sizes were: 320x180).
 */
export async function resultVideoRoute(c: C): Promise<Response> {
  const output = await outputOf(c, '.mp4', 'video');
  if (output instanceof Response) return output;
  const bytes = output.seconds === null ? resultVideo : await videoOfLength(output.seconds, output.size);
  return serveBytes(c.req.raw, bytes, 'video/mp4');
}

/** `/sandbox/frames/<task id>.png`: the video's last frame, of its size, for a task created with `return_last_frame`. */
export async function lastFrameRoute(c: C): Promise<Response> {
  const output = await outputOf(c, '.png', 'last frame');
  if (output instanceof Response) return output;
  if (!output.lastFrame) return c.json({ error: 'not_found', message: 'This task was not asked for its last frame.' }, 404);
  return serveBytes(c.req.raw, mediaOfSize(output.size).lastFrame, 'image/png');
}
