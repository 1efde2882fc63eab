import type { Context } from 'hono';
import { check, clip, failureEnvelope, isAction, librarySchemas, sentence, successEnvelope, API_VERSION } from '../../../shared';
import { accountBook } from '../accounts';
import { verifySignature } from '../auth/verify-signature';
import type { SandboxEnv } from '../env';
import { readTiming } from '../sandbox-settings';
import type { Outcome } from '../state/state-context';
import { answerable, exactBuffer, jsonOf, limitOf, readBytes, tooLarge } from './body';
import { service } from './service-object';

type C = Context<{ Bindings: SandboxEnv }>;

const FAULT_CODES: Record<number, string> = { 429: 'RequestLimitExceeded', 503: 'ServiceUnavailable' };

/**
 * HTTP status of a `ValidationError`: 200, as the service allows ("validation failures may still
 * carry HTTP 200"), so that clients are tested on reading `ResponseMetadata.Error`.
 */
export const VALIDATION_STATUS = 200;

/**
 * `POST /api/v3?Action=...&Version=2024-01-01`: counts the call, applies an injected fault,
 * verifies the signature over the exact bytes received, validates the body with the shared
 * schema, then runs the operation. The body is read within the JSON limit (413 beyond it).
 */
export async function libraryRoute(c: C): Promise<Response> {
  const url = new URL(c.req.url);
  // The caller's Action, clipped wherever it is repeated (envelope, statistics, messages).
  const rawAction = url.searchParams.get('Action') ?? '';
  const action = clip(rawAction);
  const requestId = crypto.randomUUID();
  const fail = (code: string, message: string, status: number, headers?: Record<string, string>) =>
    c.json(failureEnvelope(requestId, action, code, sentence(message)), status as 200, headers);
  const invalid = (message: string) => fail('ValidationError', message, VALIDATION_STATUS);
  const state = service(c.env);

  const fault = await state.enter('api/v3', action || '(none)');
  if (fault?.delayMs) await scheduler.wait(fault.delayMs);
  if (fault && fault.status !== 200) {
    const headers: Record<string, string> = fault.retryAfter !== null ? { 'Retry-After': String(fault.retryAfter) } : {};
    return fail(FAULT_CODES[fault.status] ?? 'InternalError', `Injected fault: HTTP ${fault.status}.`, fault.status, headers);
  }

  const limit = limitOf('POST', url.pathname);
  const body = await readBytes(c.req.raw, limit);
  if (!body) return tooLarge(c, limit);
  const verdict = await verifySignature(c.req.raw, exactBuffer(body), accountBook(c.env.SANDBOX_ACCOUNTS), Date.now());
  if (!verdict.ok) return fail(verdict.code, verdict.message, 401);

  // Validation failures carry HTTP 200 with ResponseMetadata.Error, as the service allows.
  if (!isAction(rawAction)) return invalid(`Action: "${action}" is not an operation of this interface.`);
  const version = url.searchParams.get('Version');
  if (version !== API_VERSION) return invalid(`Version: must be ${API_VERSION}.`);
  const json = jsonOf(body);
  if (!json.ok) return invalid(json.message);
  const timing = readTiming(c.env);
  const checked = check(librarySchemas({ allowHttp: timing.allowHttp })[rawAction], json.value);
  if (!checked.ok) return invalid(answerable(checked.problem).message);

  // RPC results lose their union narrowing in the generated stub types; restore it.
  const outcome = (await state.library(verdict.account.name, rawAction, checked.value, url.origin)) as Outcome<unknown>;
  if (!outcome.ok) return fail(outcome.code, outcome.message, outcome.status);
  return c.json(successEnvelope(requestId, rawAction, outcome.result));
}
