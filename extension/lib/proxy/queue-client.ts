import * as v from 'valibot';
import { type QueueItem, queueIdSchema, queueItemSchema, queueListSchema } from '@@/shared';
import { ApiError } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { callJson } from '@/lib/proxy/proxy-json';

/**
 * The gateway's queue of the member's creates that wait for the service (`/proxy/queue`), every
 * answer read with the shared schemas (`shared/gateway/queue.ts`). A queue id is checked before it
 * is put in a path: only an id the proxy gave goes back to it.
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;

function pathOf(id: string): string {
  if (!v.safeParse(queueIdSchema, id).success) throw new ApiError({ kind: 'rejected', status: 400, code: 'invalid_queue_id', message: `Not a queue id: ${id.slice(0, 40)}`, field: 'id' });
  return `/proxy/queue/${id}`;
}

/** `GET /proxy/queue`: every queued create of the member, whatever its status. */
export const listQueue = async (client: Client, signal?: AbortSignal): Promise<QueueItem[]> =>
  (await callJson(client, { method: 'GET', path: '/proxy/queue', schema: queueListSchema, signal })).items;

/** `GET /proxy/queue/:id`: one of them (404 when it is not the member's, or unknown). */
export const getQueueItem = (client: Client, id: string, signal?: AbortSignal): Promise<QueueItem> =>
  callJson(client, { method: 'GET', path: pathOf(id), schema: queueItemSchema, signal });

/** `DELETE /proxy/queue/:id`: takes a create out of the queue while it is still queued (answers it `cancelled`). */
export const cancelQueueItem = (client: Client, id: string): Promise<QueueItem> => callJson(client, { method: 'DELETE', path: pathOf(id), schema: queueItemSchema });
