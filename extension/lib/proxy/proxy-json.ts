import * as v from 'valibot';
import { ApiError, failureFrom } from '@/lib/proxy/api-failure';
import { ANSWER_MAX_BYTES, type ProxyClient } from '@/lib/proxy/proxy-client';
import { textUpTo } from '@/lib/proxy/bounded-text';

/**
 * One call of a proxy route of its own (`/proxy/...`), its answer read with the shared schema of
 * that route: the team library's clients (sharing-client, gallery-client) share it. A failure is an
 * ApiError as every call's (api-failure); an answer the schema refuses is "not like a proxy".
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface JsonCall<S extends v.GenericSchema | null> {
  method: Method;
  path: string;
  body?: unknown;
  /** How the answer must read; null: no body expected (204). */
  schema: S;
  signal?: AbortSignal;
}

export async function callJson<S extends v.GenericSchema | null>(
  client: Pick<ProxyClient, 'send' | 'proxyUrl'>,
  call: JsonCall<S>,
): Promise<S extends v.GenericSchema ? v.InferOutput<S> : void> {
  let response: Response;
  try {
    response = await client.send(call.path, {
      method: call.method,
      ...(call.body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(call.body) }),
      signal: call.signal,
    });
  } catch (error) {
    if (call.signal?.aborted) throw error;
    throw new ApiError({ kind: 'network', message: `Cannot reach the proxy at ${client.proxyUrl}.` });
  }
  const text = await textUpTo(response, ANSWER_MAX_BYTES);
  if (text === null) throw new ApiError({ kind: 'service', status: response.status, code: 'answer_too_large', message: `${client.proxyUrl} answered more than ${ANSWER_MAX_BYTES / 1024 / 1024} MB.` });
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new ApiError(failureFrom(response.status, json, response.headers.get('retry-after')));
  if (call.schema === null) return undefined as never;
  const read = v.safeParse(call.schema, json);
  if (!read.success) {
    throw new ApiError({ kind: 'service', status: response.status, code: 'unexpected_answer', message: `${client.proxyUrl} answered, but not like an Arkbridge proxy.` });
  }
  return read.output as never;
}

/** Whether the proxy has no such route (an older proxy, before the team library): a 404 of its own. */
export const isMissingRoute = (error: unknown): boolean =>
  error instanceof ApiError && error.failure.kind === 'rejected' && error.failure.status === 404 && error.failure.code === 'not_found';
