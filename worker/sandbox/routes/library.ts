import type { Context } from 'hono';
import { check, failureEnvelope, isAction, librarySchemas, successEnvelope, API_VERSION } from '../../../shared';
import { accountBook } from '../accounts';
import { verifySignature } from '../auth/verify-signature';
import { readTiming, type SandboxEnv } from '../env';
import type { Outcome } from '../state/context';
import { service } from './service';

type C = Context<{ Bindings: SandboxEnv }>;

const FAULT_CODES: Record<number, string> = { 429: 'RequestLimitExceeded', 503: 'ServiceUnavailable' };

/**
 * `POST /api/v3?Action=...&Version=2024-01-01`: counts the call, applies an injected fault,
 * verifies the signature, validates the body with the shared schema, then runs the operation.
 */
export async function libraryRoute(c: C): Promise<Response> {
  const url = new URL(c.req.url);
  const action = url.searchParams.get('Action') ?? '';
  const requestId = crypto.randomUUID();
  const fail = (code: string, message: string, status: number, headers?: Record<string, string>) =>
    c.json(failureEnvelope(requestId, action, code, message), status as 200, headers);
  const state = service(c.env);

  const fault = await state.enter('api/v3', action || '(none)');
  if (fault?.delayMs) await scheduler.wait(fault.delayMs);
  if (fault && fault.status !== 200) {
    const headers: Record<string, string> = fault.retryAfter !== null ? { 'Retry-After': String(fault.retryAfter) } : {};
    return fail(FAULT_CODES[fault.status] ?? 'InternalError', `Injected fault: HTTP ${fault.status}.`, fault.status, headers);
  }

  const body = await c.req.arrayBuffer();
  const verdict = await verifySignature(c.req.raw, body, accountBook(c.env.SANDBOX_ACCOUNTS), Date.now());
  if (!verdict.ok) return fail(verdict.code, verdict.message, 401);

  // Validation failures carry HTTP 200 with ResponseMetadata.Error, as the service allows.
  if (!isAction(action)) return fail('ValidationError', `Action: "${action}" is not an operation of this interface.`, 200);
  const version = url.searchParams.get('Version');
  if (version !== API_VERSION) return fail('ValidationError', `Version: must be ${API_VERSION}.`, 200);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return fail('ValidationError', 'body: is not valid JSON.', 200);
  }
  const timing = readTiming(c.env);
  const checked = check(librarySchemas({ allowHttp: timing.allowHttp })[action], json);
  if (!checked.ok) return fail('ValidationError', checked.problem.message, 200);

  // RPC results lose their union narrowing in the generated stub types; restore it.
  const outcome = (await state.library(verdict.account.name, action, checked.value, url.origin)) as Outcome<unknown>;
  if (!outcome.ok) return fail(outcome.code, outcome.message, outcome.status);
  return c.json(successEnvelope(requestId, action, outcome.result));
}
