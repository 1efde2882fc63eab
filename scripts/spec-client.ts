/**
 * An independent client of the service, written only from the service's published interface
 * (no imports from shared/ or worker/), so that it can check the sandbox and the real service
 * against the text rather than against our own code.
 *
 * Run directly: `npx tsx scripts/spec-client.ts` runs the spec's typical flow. Environment:
 * LIBRARY_BASE / VIDEO_BASE (default http://127.0.0.1:8788), ACCESS_KEY_ID, SECRET_ACCESS_KEY,
 * API_KEY (default: the sandbox's dev account), IMAGE_URL (when unset, a local media server is
 * started and its /media/sample.png is used; the sandbox then needs SANDBOX_ALLOW_HTTP=on).
 */
import { createHash, createHmac } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export interface AccessKeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A call that was not accepted: an HTTP failure or a `ResponseMetadata.Error` / `error` object. */
export class ServiceError extends Error {
  constructor(readonly what: string, readonly status: number, readonly code: string, message: string) {
    super(`${what}: HTTP ${status}, ${code || 'no code'}: ${message}`);
    this.name = 'ServiceError';
  }
}

const VERSION = '2024-01-01';
const REGION = 'cn-beijing';
const SERVICE = 'ark';
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The signed headers of one `/api/v3` call ("Access key pair" section). */
export function signHeaders(url: URL, body: string, creds: AccessKeyPair, now = new Date()): Record<string, string> {
  const xDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''); // YYYYMMDDTHHMMSSZ
  const date = xDate.slice(0, 8);
  const headers: [string, string][] = [
    ['content-type', 'application/json'],
    ['host', url.host],
    ['x-content-sha256', sha256(Buffer.from(body, 'utf8'))],
    ['x-date', xDate],
  ];
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonicalHeaders = headers.map(([name, value]) => `${name}:${value}\n`).join('');
  const canonicalQuery = [...url.searchParams]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const canonicalRequest = ['POST', url.pathname, canonicalQuery, canonicalHeaders, signedHeaders, headers[2]![1]].join('\n');
  const scope = `${date}/${REGION}/${SERVICE}/request`;
  const stringToSign = ['HMAC-SHA256', xDate, scope, sha256(canonicalRequest)].join('\n');
  const key = [date, REGION, SERVICE, 'request'].reduce<string | Buffer>((k, part) => hmac(k, part), creds.secretAccessKey);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    'Content-Type': 'application/json',
    Host: url.host,
    'X-Content-Sha256': headers[2]![1],
    'X-Date': xDate,
    Authorization: `HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** One asset library operation; returns `Result`, throws ServiceError on HTTP or envelope errors. */
export async function signedCall<T = Record<string, unknown>>(base: string, creds: AccessKeyPair, action: string, body: object = {}): Promise<T> {
  const url = new URL(`/api/v3?Action=${encodeURIComponent(action)}&Version=${VERSION}`, base);
  const text = JSON.stringify(body); // signed and sent as exactly these bytes
  const res = await fetch(url, { method: 'POST', headers: signHeaders(url, text, creds), body: text });
  const json = (await res.json().catch(() => null)) as { ResponseMetadata?: { Error?: { Code?: string; Message?: string }; Version?: string }; Result?: T } | null;
  const error = json?.ResponseMetadata?.Error;
  if (error) throw new ServiceError(action, res.status, error.Code ?? '', error.Message ?? '');
  if (!res.ok || !json?.ResponseMetadata) throw new ServiceError(action, res.status, '', 'no valid response envelope');
  if (json.ResponseMetadata.Version !== VERSION) throw new ServiceError(action, res.status, '', `Version ${json.ResponseMetadata.Version} is not ${VERSION}`);
  if (json.Result === undefined) throw new ServiceError(action, res.status, '', 'success envelope without Result');
  return json.Result;
}

/** One video interface call with the bearer key; throws ServiceError on a non-2xx answer. */
export async function videoCall<T = Record<string, unknown>>(base: string, apiKey: string, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json().catch(() => null)) as (T & { error?: { code?: string; message?: string } }) | null;
  if (!res.ok || !json) throw new ServiceError(`${method} ${path}`, res.status, json?.error?.code ?? '', json?.error?.message ?? 'no JSON body');
  return json;
}

/** Calls `step` every `everyMs` until it returns a value, or fails after `timeoutMs`. */
async function poll<T>(what: string, step: () => Promise<T | undefined>, timeoutMs = 120_000, everyMs = 500): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const done = await step();
    if (done !== undefined) return done;
    if (Date.now() > until) throw new Error(`${what}: not finished after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const MODEL = 'doubao-seedance-2-0-260128';

export interface FlowOptions extends AccessKeyPair {
  libraryBase: string;
  videoBase: string;
  apiKey: string;
  imageUrl: string;
  log?: (line: string) => void;
  timeoutMs?: number;
}

export interface FlowSummary {
  groupId: string;
  assetId: string;
  assetStatus: string;
  taskId: string;
  taskStatus: string;
  videoUrl: string;
  videoType: string;
  videoBytes: number;
  seconds: number;
}

interface Asset { Id: string; Status: string; Error?: { Code: string; Message: string } }
interface Task { id: string; status: string; progress: number; metadata?: { url?: string }; error?: { code: string; message: string } }

/** The typical flow: group -> asset -> poll until Active -> video task -> poll -> download. */
export async function runTypicalFlow(o: FlowOptions): Promise<FlowSummary> {
  const log = o.log ?? (() => {});
  const started = Date.now();
  const creds = { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey };

  const models = await videoCall<{ data: { id: string }[] }>(o.videoBase, o.apiKey, 'GET', '/v1/models');
  if (!models.data.some((m) => m.id === MODEL)) throw new Error(`model ${MODEL} is not in /v1/models`);
  log(`models: ${models.data.length} listed, ${MODEL} among them`);

  const { Id: groupId } = await signedCall<{ Id: string }>(o.libraryBase, creds, 'CreateAssetGroup', { Name: `spec-client ${new Date().toISOString()}`, Description: 'Created by scripts/spec-client.ts' });
  log(`CreateAssetGroup -> ${groupId}`);
  const { Id: assetId } = await signedCall<{ Id: string }>(o.libraryBase, creds, 'CreateAsset', { GroupId: groupId, AssetType: 'Image', Name: 'spec-client image', URL: o.imageUrl });
  log(`CreateAsset (${o.imageUrl}) -> ${assetId}`);

  const asset = await poll('GetAsset', async () => {
    const a = await signedCall<Asset>(o.libraryBase, creds, 'GetAsset', { Id: assetId });
    log(`GetAsset ${assetId}: ${a.Status}`);
    if (a.Status === 'Failed') throw new Error(`asset ${assetId} Failed: ${a.Error?.Code}: ${a.Error?.Message}`);
    return a.Status === 'Active' ? a : undefined;
  }, o.timeoutMs);

  const created = await videoCall<Task>(o.videoBase, o.apiKey, 'POST', '/v1/video/generations', {
    model: MODEL,
    content: [
      { type: 'text', text: 'A slow dolly shot around the subject of the reference image, soft daylight.' },
      { type: 'image_url', image_url: { url: `asset://${assetId}` }, role: 'reference_image' },
    ],
  });
  if (!created.id || created.status !== 'queued') throw new Error(`create answered ${JSON.stringify(created)}; expected a queued task`);
  log(`POST /v1/video/generations -> ${created.id} (${created.status}, ${created.progress}%)`);

  const task = await poll('video task', async () => {
    const t = await videoCall<Task>(o.videoBase, o.apiKey, 'GET', `/v1/video/generations/${encodeURIComponent(created.id)}`);
    log(`GET task ${t.id}: ${t.status} ${t.progress}%`);
    if (t.status === 'failed') throw new Error(`task ${t.id} failed: ${t.error?.code}: ${t.error?.message}`);
    return t.status === 'completed' ? t : undefined;
  }, o.timeoutMs, 1000);

  const videoUrl = task.metadata?.url;
  if (!videoUrl) throw new Error(`task ${task.id} completed without metadata.url`);
  const res = await fetch(videoUrl);
  const bytes = Buffer.from(await res.arrayBuffer());
  const videoType = res.headers.get('content-type') ?? '';
  if (!res.ok) throw new Error(`download of ${videoUrl}: HTTP ${res.status}`);
  if (!videoType.startsWith('video/mp4')) throw new Error(`download of ${videoUrl}: Content-Type ${videoType}, expected video/mp4`);
  if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp') throw new Error(`download of ${videoUrl}: no MP4 ftyp box at the start`);
  log(`downloaded ${videoUrl}: ${videoType}, ${bytes.length} bytes, ftyp ${bytes.toString('latin1', 8, 12)}`);

  return { groupId, assetId, assetStatus: asset.Status, taskId: task.id, taskStatus: task.status, videoUrl, videoType, videoBytes: bytes.length, seconds: (Date.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const env = process.env;
  let imageUrl = env.IMAGE_URL;
  let close = async () => {};
  if (!imageUrl) {
    const { startMediaServer } = await import('../test/support/media-server');
    const media = await startMediaServer();
    imageUrl = `${media.url}/media/sample.png`;
    close = media.close;
    console.log(`media server at ${media.url} (the sandbox needs SANDBOX_ALLOW_HTTP=on for this http URL)`);
  }
  try {
    const summary = await runTypicalFlow({
      libraryBase: env.LIBRARY_BASE ?? 'http://127.0.0.1:8788',
      videoBase: env.VIDEO_BASE ?? env.LIBRARY_BASE ?? 'http://127.0.0.1:8788',
      accessKeyId: env.ACCESS_KEY_ID ?? 'AKSANDBOXDEV',
      secretAccessKey: env.SECRET_ACCESS_KEY ?? 'sandbox-dev-secret-key',
      apiKey: env.API_KEY ?? 'sk-sandbox-dev',
      imageUrl,
      log: (line) => console.log(`  ${line}`),
    });
    console.log('OK', summary);
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
    console.error(`FAILED: ${err instanceof Error ? err.message : String(err)}${cause}`);
    process.exit(1);
  });
}
