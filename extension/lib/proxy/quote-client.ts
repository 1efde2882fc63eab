import * as v from 'valibot';
import { type QuoteAnswer, quoteAnswerSchema, type VideoCreateBody } from '@@/shared';
import { ApiError, failureFrom } from '@/lib/proxy/api-failure';
import { textUpTo } from '@/lib/proxy/bounded-text';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * `POST /proxy/quote`: what a video create with this body would reserve (the most the task can
 * cost) and what the budgets have left, with nothing created, reserved or sent upstream. Its own
 * module so that only the Generate chunk carries it, never the popup's first paint.
 */

/** Most bytes of an answer read: a quote is a hundred bytes, a refusal one sentence. */
export const QUOTE_ANSWER_MAX_BYTES = 64 * 1024;

/**
 * The quote of `body`; null from a proxy without the route (an older one answers 404): then no
 * quote is shown. Anything else that is not a quote throws an ApiError as every call does
 * (api-failure): a 400 names the field the create would refuse, 403 `model_not_allowed` the model.
 */
export async function quoteVideo(client: Pick<ProxyClient, 'send' | 'proxyUrl'>, body: VideoCreateBody, signal?: AbortSignal): Promise<QuoteAnswer | null> {
  let response: Response;
  try {
    response = await client.send('/proxy/quote', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ kind: 'network', message: `Cannot reach the proxy at ${client.proxyUrl}.` });
  }
  if (response.status === 404) {
    void response.body?.cancel().catch(() => {});
    return null;
  }
  const text = await textUpTo(response, QUOTE_ANSWER_MAX_BYTES);
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new ApiError(failureFrom(response.status, json, response.headers.get('retry-after')));
  const answer = v.safeParse(quoteAnswerSchema, json);
  if (!answer.success) {
    throw new ApiError({ kind: 'service', status: response.status, code: 'unexpected_answer', message: `${client.proxyUrl} answered, but not like an Arkbridge proxy.` });
  }
  return answer.output;
}
