/**
 * A tiny HTTP server for the media fixtures in test/fixtures/media, so tests can download real
 * bytes and exercise download failures. Node only (node:http), no dependencies.
 *
 * Routes (GET and HEAD; every response allows any origin):
 * - `/media/<file>`          the fixture with its Content-Type, Content-Length and Range support;
 * - `/status/<code>`         a tiny text response with that status (200–599);
 * - `/wrong-type/<file>`     the fixture's bytes, but labelled `Content-Type: text/html`;
 * - `/slow/<ms>/<file>`      the fixture after waiting `ms` milliseconds (at most 60 s) before any header;
 * - `/drop-once/<key>/<file>` the first request for a key has its connection dropped with no answer;
 *                            the next ones get the fixture (a server that a fetcher must try again);
 * - `/held/<key>/<file>`     the fixture once `POST /release/<key>` is called (at most 60 s later): a
 *                            download that lasts exactly as long as the test wants, however loaded
 *                            the machine; `GET /held/<key>` answers `{"waiting":n}`.
 * - `/page/<title>`          an HTML page titled <title> showing sample.png (#image), sample.mp4
 *                            (#video) and sample.mp3 (#audio): a web page to capture from.
 * - `/capture-page/<title>`  a page that signs the visitor in (sets the cookie `/private/` wants) and
 *                            shows what the service cannot fetch: a `data:` image (#data-image), a
 *                            `blob:` image (#blob-image), a cookie-protected image (#private-image),
 *                            sample.jpg (#http-image), sample.mp4 (#video) and an 8 MB `blob:` video
 *                            (#big-video); `<html data-ready>` once the blobs are made.
 * - `/private/<file>`        the fixture, only with the cookie `arkbridge_member=1` (else 403).
 * - `GET /cdn-cgi/access/certs`  a Cloudflare Access key set (JWKS) for tests of Access sign-in;
 *                            `POST /access/sign` `{"claims":{...},"key":"team"|"other","expiresIn":"1h"}`
 *                            answers a JWT signed RS256 with the team key (in the set) or another key
 *                            (`"expiresIn":null`: a JWT without `exp`).
 * - `POST /hooks/<name>`     a webhook receiver: keeps the JSON body (up to 64 KB, the last 1,000
 *                            per name) and answers 204; `GET /hooks/<name>` lists what it received.
 * Anything else, or an unknown file, is a 404.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { extname, join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const MEDIA_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/media/', import.meta.url));

export const MEDIA_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
};

const MAX_DELAY_MS = 60_000;
/** The cookie `/capture-page/` sets and `/private/` wants. */
const MEMBER_COOKIE = 'arkbridge_member=1';

export interface MediaServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1; port 0 (the default) picks a free port. */
export async function startMediaServer(port = 0): Promise<MediaServer> {
  // Fixtures are small: read them once so every request is served from memory.
  const files = new Map<string, Buffer>();
  for (const name of await readdir(MEDIA_FIXTURES_DIR)) {
    if (MEDIA_CONTENT_TYPES[extname(name).toLowerCase()]) {
      files.set(name, await readFile(join(MEDIA_FIXTURES_DIR, name)));
    }
  }

  const pendingTimers = new Set<NodeJS.Timeout>();
  const hooks = new Map<string, unknown[]>();
  /** Held downloads by key: each one's way to send its file. */
  const held = new Map<string, (() => void)[]>();
  /** Keys of `/drop-once/` whose first connection was dropped. */
  const dropped = new Set<string>();
  const access = await accessKeys();

  function receiveHook(req: IncomingMessage, res: ServerResponse, name: string): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 64 * 1024) return void req.destroy();
      chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, 'text/plain; charset=utf-8', Buffer.from('not JSON'));
      }
      const list = hooks.get(name) ?? [];
      list.push(body);
      if (list.length > 1000) list.shift();
      hooks.set(name, list);
      send(res, 204);
    });
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', Buffer.from(String(err)));
      else res.destroy();
    }
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Content-Type');
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', '*');
      return send(res, 204);
    }
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname === '/cdn-cgi/access/certs' && req.method === 'GET') return send(res, 200, 'application/json', Buffer.from(JSON.stringify(access.jwks)));
    if (pathname === '/access/sign' && req.method === 'POST') return void signAccess(req, res);
    const hook = /^\/hooks\/([\w-]{1,64})$/.exec(pathname);
    if (hook && req.method === 'POST') return receiveHook(req, res, hook[1]!);
    if (hook && req.method === 'GET') return send(res, 200, 'application/json', Buffer.from(JSON.stringify({ received: hooks.get(hook[1]!) ?? [] })));
    const release = /^\/release\/([\w-]{1,64})$/.exec(pathname);
    if (release && req.method === 'POST') {
      const waiting = held.get(release[1]!) ?? [];
      held.delete(release[1]!);
      waiting.forEach((go) => go());
      return send(res, 200, 'application/json', Buffer.from(JSON.stringify({ released: waiting.length })));
    }
    const heldKey = /^\/held\/([\w-]{1,64})$/.exec(pathname);
    if (heldKey && req.method === 'GET') return send(res, 200, 'application/json', Buffer.from(JSON.stringify({ waiting: held.get(heldKey[1]!)?.length ?? 0 })));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      return send(res, 405, 'text/plain; charset=utf-8', Buffer.from('method not allowed'));
    }

    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const parts = path.split('/').filter(Boolean).map(safeDecode);
    const [route, ...rest] = parts;

    if (route === 'media' && rest.length === 1) return sendFile(req, res, rest[0]!);
    if (route === 'wrong-type' && rest.length === 1) {
      return sendFile(req, res, rest[0]!, 'text/html; charset=utf-8');
    }
    if (route === 'status' && rest.length === 1 && /^\d{3}$/.test(rest[0]!)) {
      const code = Number(rest[0]);
      if (code >= 200 && code <= 599) {
        return send(res, code, 'text/plain; charset=utf-8', Buffer.from(`status ${code}`));
      }
    }
    if (route === 'capture-page' && rest.length === 1) {
      res.setHeader('Set-Cookie', `${MEMBER_COOKIE}; Path=/; HttpOnly; SameSite=Lax`);
      return send(res, 200, 'text/html; charset=utf-8', Buffer.from(capturePage(rest[0]!)), req.method === 'HEAD');
    }
    if (route === 'private' && rest.length === 1) {
      const signedIn = (req.headers.cookie ?? '').split(/;\s*/).includes(MEMBER_COOKIE);
      return signedIn ? sendFile(req, res, rest[0]!) : send(res, 403, 'text/plain; charset=utf-8', Buffer.from('sign in first'));
    }
    if (route === 'page' && rest.length === 1) {
      return send(res, 200, 'text/html; charset=utf-8', Buffer.from(galleryPage(rest[0]!)), req.method === 'HEAD');
    }
    if (route === 'slow' && rest.length === 2 && /^\d+$/.test(rest[0]!)) {
      const ms = Math.min(Number(rest[0]), MAX_DELAY_MS);
      const name = rest[1]!;
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        if (!res.destroyed) sendFile(req, res, name);
      }, ms);
      pendingTimers.add(timer);
      res.on('close', () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
      });
      return;
    }
    if (route === 'drop-once' && rest.length === 2 && /^[\w-]{1,64}$/.test(rest[0]!)) {
      if (dropped.has(rest[0]!)) return sendFile(req, res, rest[1]!);
      dropped.add(rest[0]!);
      if (dropped.size > 10_000) dropped.clear();
      return void req.socket.destroy();
    }
    if (route === 'held' && rest.length === 2 && /^[\w-]{1,64}$/.test(rest[0]!)) {
      const [key, name] = [rest[0]!, rest[1]!];
      const go = () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
        if (!res.destroyed) sendFile(req, res, name);
      };
      const timer = setTimeout(go, MAX_DELAY_MS);
      pendingTimers.add(timer);
      held.set(key, [...(held.get(key) ?? []), go]);
      res.on('close', () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
        const others = (held.get(key) ?? []).filter((g) => g !== go);
        if (others.length > 0) held.set(key, others);
        else held.delete(key);
      });
      return;
    }
    send(res, 404, 'text/plain; charset=utf-8', Buffer.from('not found'));
  }

  function signAccess(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const { claims, key, expiresIn } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { claims: Record<string, unknown>; key?: 'team' | 'other'; expiresIn?: string | number | null };
        const unsigned = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key === 'other' ? 'other' : 'team' }).setIssuedAt();
        if (expiresIn !== null) unsigned.setExpirationTime(expiresIn ?? '1h');
        const jwt = await unsigned.sign(key === 'other' ? access.other : access.team);
        send(res, 200, 'application/json', Buffer.from(JSON.stringify({ jwt })));
      } catch (error) {
        send(res, 400, 'text/plain; charset=utf-8', Buffer.from(String(error)));
      }
    });
  }

  function galleryPage(title: string): string {
    const text = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${text}</title></head>
<body>
  <h1>${text}</h1>
  <img id="image" src="/media/sample.png" alt="Sample picture" width="160">
  <video id="video" src="/media/sample.mp4" controls muted width="320"></video>
  <audio id="audio" src="/media/sample.mp3" controls></audio>
</body>
</html>`;
  }

  function capturePage(title: string): string {
    const text = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const png = files.get('sample.png')!.toString('base64');
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${text}</title></head>
<body>
  <h1>${text}</h1>
  <img id="data-image" src="data:image/png;base64,${png}" alt="Embedded picture" width="80">
  <img id="blob-image" alt="Drawn picture" width="80">
  <img id="private-image" src="/private/sample.png" alt="Members picture" width="80">
  <img id="http-image" src="/media/sample.jpg" alt="Plain picture" width="80">
  <video id="video" src="/media/sample.mp4" muted width="160"></video>
  <video id="big-video" muted width="160"></video>
  <script>
    (async () => {
      const jpeg = await (await fetch('/media/sample.jpg')).blob();
      document.getElementById('blob-image').src = URL.createObjectURL(jpeg);
      // 8 MB: an MP4's bytes padded with zeros (the proxy checks the first bytes, the sandbox the type and size).
      const mp4 = await (await fetch('/media/sample.mp4')).arrayBuffer();
      const big = new Uint8Array(8 * 1024 * 1024);
      big.set(new Uint8Array(mp4));
      document.getElementById('big-video').src = URL.createObjectURL(new Blob([big], { type: 'video/mp4' }));
      document.documentElement.dataset.ready = '1';
    })();
  </script>
</body>
</html>`;
  }

  function sendFile(req: IncomingMessage, res: ServerResponse, name: string, typeOverride?: string): void {
    const body = files.get(name);
    if (!body) return send(res, 404, 'text/plain; charset=utf-8', Buffer.from('not found'));
    const type = typeOverride ?? MEDIA_CONTENT_TYPES[extname(name).toLowerCase()]!;
    res.setHeader('Accept-Ranges', 'bytes');

    // Single byte ranges are enough for <video>/<audio>; anything else gets the whole file.
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      const size = body.length;
      let start: number;
      let end: number;
      if (range[1]) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      } else {
        start = Math.max(size - Number(range[2]), 0);
        end = size - 1;
      }
      if (start >= size || start > end) {
        res.setHeader('Content-Range', `bytes */${size}`);
        return send(res, 416);
      }
      res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
      return send(res, 206, type, body.subarray(start, end + 1), req.method === 'HEAD');
    }
    send(res, 200, type, body, req.method === 'HEAD');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        pendingTimers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The Access keys of the test server: the team's (published in the set) and another (not). */
async function accessKeys() {
  const team = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(team.publicKey)), kid: 'team', alg: 'RS256', use: 'sig' };
  return { team: team.privateKey, other: other.privateKey, jwks: { keys: [publicJwk] } };
}

function send(res: ServerResponse, status: number, type?: string, body?: Buffer, headOnly = false): void {
  // 1xx, 204 and 304 never carry a body.
  const bodyless = status < 200 || status === 204 || status === 304;
  res.statusCode = status;
  if (!bodyless && type) res.setHeader('Content-Type', type);
  if (!bodyless) res.setHeader('Content-Length', body?.length ?? 0);
  res.end(bodyless || headOnly ? undefined : body);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
