import { type QuoteAnswer, quoteAnswerSchema, type VideoCreateBody } from '@@/shared';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { callJson, isMissingRoute } from '@/lib/proxy/proxy-json';

/**
 * `POST /proxy/quote`: what a video create with this body would reserve (the most the task can
 * cost) and what the budgets have left, with nothing created, reserved or sent upstream. Its own
 * module so that only the Generate chunk carries it, never the popup's first paint.
 */

/**
 * The quote of `body`; null from a proxy without the route (an older one answers 404): then no
 * quote is shown. Anything else that is not a quote throws an ApiError as every call does
 * (api-failure): a 400 names the field the create would refuse, 403 `model_not_allowed` the model.
 */
export async function quoteVideo(client: Pick<ProxyClient, 'send' | 'proxyUrl'>, body: VideoCreateBody, signal?: AbortSignal): Promise<QuoteAnswer | null> {
  try {
    return await callJson(client, { method: 'POST', path: '/proxy/quote', body, schema: quoteAnswerSchema, signal });
  } catch (error) {
    if (isMissingRoute(error)) return null;
    throw error;
  }
}
