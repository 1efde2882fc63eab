/**
 * A webhook receiver for the proxy's webhook tests: a real HTTP server on 127.0.0.1 that keeps
 * every POST exactly as it arrived (headers and raw body) and answers as each endpoint was told.
 * Node only (node:http), no dependencies.
 *
 * - `POST /in/<name>`              a delivery: kept (the last 1,000 per name, bodies up to 256 KB),
 *                                  answered with the endpoint's next scripted status (204 when none left).
 * - `GET /in/<name>`               `{"received":[{"headers":{...},"body":"<raw text>","status":<answered>}]}`.
 * - `PUT /script/<name>` `{"statuses":[500,503,...]}`  the statuses the next POSTs get, in order.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  close(): Promise<void>;
}

const BODY_MAX = 256 * 1024;

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) return void req.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received = new Map<string, ReceivedDelivery[]>();
  const scripts = new Map<string, number[]>();

  const answer = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const inbox = /^\/in\/([\w-]{1,64})$/.exec(path);
    const script = /^\/script\/([\w-]{1,64})$/.exec(path);
    if (inbox && req.method === 'POST') {
      const body = await readBody(req);
      if (body === null) return;
      const name = inbox[1]!;
      const status = scripts.get(name)?.shift() ?? 204;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const list = received.get(name) ?? [];
      list.push({ headers, body, status });
      if (list.length > 1000) list.shift();
      received.set(name, list);
      return answer(res, status, status === 204 ? undefined : { status });
    }
    if (inbox && req.method === 'GET') return answer(res, 200, { received: received.get(inbox[1]!) ?? [] });
    if (script && req.method === 'PUT') {
      const body = JSON.parse((await readBody(req)) ?? '{}') as { statuses?: number[] };
      scripts.set(script[1]!, [...(body.statuses ?? [])]);
      return answer(res, 204);
    }
    answer(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { error: 'receiver failed' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
