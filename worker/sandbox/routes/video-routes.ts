import type { Context } from 'hono';
import { checkVideoCreate, invalidParameter, MODELS, sentence, videoError, type TaskStatus } from '../../../shared';
import { accountBook, type Account } from '../accounts';
import type { SandboxEnv } from '../env';
import { readTiming } from '../sandbox-settings';
import type { Fault, FaultTarget } from '../state/control';
import { answerable, limitOf, readJson, tooLarge } from './body';
import { service } from './service-object';

type C = Context<{ Bindings: SandboxEnv }>;

const FAULTS: Record<number, [code: string, type: string]> = {
  429: ['rate_limited', 'rate_limit_error'],
  503: ['model_unavailable', 'server_error'],
};

function faultResponse(c: C, fault: Fault): Response {
  const [code, type] = FAULTS[fault.status] ?? ['internal_error', 'server_error'];
  const headers: Record<string, string> = fault.retryAfter !== null ? { 'Retry-After': String(fault.retryAfter) } : {};
  return c.json(videoError(code, `Injected fault: HTTP ${fault.status}.`, type), fault.status as 500, headers);
}

/** The account of the bearer key, or null. */
function bearer(c: C): Account | null {
  const match = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '');
  return (match && accountBook(c.env.SANDBOX_ACCOUNTS).byApiKey(match[1]!)) || null;
}

const unauthorized = (c: C) => c.json(videoError('unauthorized', 'The API key is missing, invalid or not authorized.', 'authentication_error'), 401);

/** Counts, applies a fault (unless it only changes the reported status), authenticates. */
async function enter(c: C, target: FaultTarget): Promise<{ account: Account; fault: Fault | null } | Response> {
  const fault = await service(c.env).enter(target, c.req.method);
  if (fault?.delayMs) await scheduler.wait(fault.delayMs);
  if (fault && fault.status !== 200) return faultResponse(c, fault);
  const account = bearer(c);
  return account ? { account, fault } : unauthorized(c);
}

export async function listModels(c: C): Promise<Response> {
  const entered = await enter(c, 'v1-models');
  if (entered instanceof Response) return entered;
  return c.json({ object: 'list', data: MODELS.map((m) => ({ id: m.id, object: 'model', owned_by: 'sandbox' })) });
}

export async function createVideo(c: C): Promise<Response> {
  const entered = await enter(c, 'v1-create');
  if (entered instanceof Response) return entered;
  const limit = limitOf('POST', new URL(c.req.url).pathname);
  const json = await readJson(c.req.raw, limit);
  if (!json.ok) return json.status === 413 ? tooLarge(c, limit) : c.json(invalidParameter('body', sentence(json.message)), 400);
  const checked = checkVideoCreate(json.value, { allowHttp: readTiming(c.env).allowHttp });
  if (!checked.ok) {
    // An unknown model id is repeated by the catalog's messages: clip it there too.
    const model = (json.value as { model?: unknown } | null)?.model;
    const problem = answerable(checked.problem, [model]);
    return c.json(invalidParameter(problem.field, problem.message), 400);
  }
  const { body, references } = checked.value;
  // The task keeps only the model, its references and what its output depends on (size and length
  // for `usage` and the video, the last frame); a long prompt need not cross to storage.
  const { model, resolution, ratio, duration, frames, return_last_frame } = body;
  const kept = { model, resolution, ratio, duration, frames, return_last_frame };
  const outcome = await service(c.env).createTask(entered.account.name, kept, references, new URL(c.req.url).origin);
  if (outcome.ok) return c.json(outcome.task);
  const headers: Record<string, string> = outcome.retryAfter !== undefined ? { 'Retry-After': String(outcome.retryAfter) } : {};
  return c.json(outcome.body, outcome.status as 400, headers);
}

export async function getVideo(c: C): Promise<Response> {
  const entered = await enter(c, 'v1-get');
  if (entered instanceof Response) return entered;
  const task = await service(c.env).getTask(entered.account.name, c.req.param('id')!, new URL(c.req.url).origin);
  if (!task) return c.json(videoError('task_not_found', 'No task with this id exists for this key.', 'invalid_request_error', 'task_id'), 404);
  const forced = entered.fault?.taskStatus as TaskStatus | null | undefined;
  if (forced) {
    // An injected status (e.g. `unknown`): the service could not determine the task's state.
    const { metadata: _m, completed_at: _c, error: _e, usage: _u, ...rest } = task;
    return c.json({ ...rest, status: forced });
  }
  return c.json(task);
}
