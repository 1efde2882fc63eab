import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponseHeaders, xhrFetch } from '@/lib/proxy/xhr-fetch';

// A real local server: happy-dom's XMLHttpRequest really sends (it reports no upload progress,
// which Chromium's does: the end-to-end upload test covers that).
let server: Server;
let base: string;
let seen: { method?: string; headers: IncomingMessage['headers']; bytes: number }[] = [];

function answer(req: IncomingMessage, res: ServerResponse, bytes: number): void {
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-upload-id', 'access-control-allow-headers': 'authorization, content-type' };
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
  if (req.url === '/big') {
    res.writeHead(200, { ...cors, 'content-type': 'text/plain' });
    return void res.end('x'.repeat(300_000));
  }
  if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5_000);
  res.writeHead(201, { ...cors, 'content-type': 'application/json', 'x-upload-id': 'u-1' });
  res.end(JSON.stringify({ received: bytes }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, bytes });
      answer(req, res, bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('xhrFetch', () => {
  it('sends the method, headers and body, and answers status, headers and body as fetch would', async () => {
    seen = [];
    const response = await xhrFetch(() => {})(`${base}/proxy/uploads`, {
      method: 'POST',
      headers: { Authorization: 'Bearer member-token', 'Content-Type': 'image/png' },
      body: new Uint8Array(123_456),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-upload-id')).toBe('u-1');
    expect(await response.json()).toEqual({ received: 123_456 });
    expect(seen.find((r) => r.method === 'POST')).toMatchObject({ method: 'POST', bytes: 123_456, headers: { authorization: 'Bearer member-token', 'content-type': 'image/png' } });
  });

  it('does not take an answer larger than its limit into memory', async () => {
    await expect(xhrFetch(() => {}, 64 * 1024)(`${base}/big`)).rejects.toThrow(/too large/);
    // Under the limit, the same answer is whole.
    expect((await (await xhrFetch(() => {})(`${base}/big`)).text()).length).toBe(300_000);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = xhrFetch(() => {})(`${base}/slow`, { signal: controller.signal });
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects like fetch when nothing answers', async () => {
    await expect(xhrFetch(() => {})('http://127.0.0.1:9/')).rejects.toBeInstanceOf(TypeError);
  });
});

describe('parseResponseHeaders', () => {
  it('splits each line at its first colon and skips what is not a header', () => {
    const headers = parseResponseHeaders('content-type: application/json\r\nlocation: https://p.example/a:b\r\nnot a header\r\n: empty name\r\n');
    expect([...headers]).toEqual([
      ['content-type', 'application/json'],
      ['location', 'https://p.example/a:b'],
    ]);
  });

  it('reads a long header block in linear time', () => {
    const raw = Array.from({ length: 20_000 }, (_, i) => `x-h${i}: ${'v'.repeat(20)}`).join('\r\n');
    expect([...parseResponseHeaders(raw)]).toHaveLength(20_000);
  });
});
