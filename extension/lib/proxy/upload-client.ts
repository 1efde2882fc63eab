import * as v from 'valibot';
import { UPLOAD_LIMITS, uploadAnswerSchema } from '@@/shared';
import { formatSize } from '@/lib/format/format-size';
import { t } from '@/lib/i18n/translate';
import { ApiError, type ApiFailure, failureFrom } from '@/lib/proxy/api-failure';
import { textUpTo } from '@/lib/proxy/bounded-text';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * `POST /proxy/uploads`: the bytes the browser has, stored by the team's proxy, which answers a
 * signed address the service downloads like any URL (docs/media-store.md). One request with the
 * whole body: the proxy needs `Content-Length` (it refuses a too-large file before reading it),
 * which the browser sets for a byte array or a Blob and never for a stream.
 */

export type UploadAnswer = v.InferOutput<typeof uploadAnswerSchema>;

/** Most bytes of an answer read: a 201 is a few hundred bytes, a refusal one sentence. */
export const UPLOAD_ANSWER_MAX_BYTES = 64 * 1024;

export interface UploadOptions {
  /** The media type (checked by the caller with the shared rules: upload-rules). */
  contentType: string;
  /** A display name the proxy keeps with the upload. */
  name?: string;
  signal?: AbortSignal;
}

const rejected = (status: number, code: string, message: string): ApiFailure => ({ kind: 'rejected', status, code, message });

/** The proxy's refusal of an upload, as the member reads it; other failures as every call's (api-failure). */
export function uploadFailure(status: number, body: { error?: { code?: string; message?: string } } | null, retryAfter: string | null): ApiFailure {
  const code = body?.error?.code ?? `http_${status}`;
  // An older proxy has no such route: Hono's (or the proxy's) 404 for an unknown path.
  if (status === 404) return rejected(404, 'uploads_unsupported', t('upload.error.unsupported'));
  if (status === 411) return rejected(411, code, t('upload.error.length'));
  if (status === 413) {
    const limits = { image: formatSize(UPLOAD_LIMITS.image), video: formatSize(UPLOAD_LIMITS.video), audio: formatSize(UPLOAD_LIMITS.audio) };
    return rejected(413, code, t('upload.error.tooLarge', limits));
  }
  if (status === 415) return rejected(415, code, t('upload.error.type', { message: body?.error?.message ?? `HTTP ${status}` }));
  // Not something that passes: the operator must set the media store up.
  if (status === 503 && code === 'media_store_not_configured') return rejected(503, code, t('upload.error.notConfigured'));
  return failureFrom(status, body, retryAfter);
}

/** Uploads `body` through `client`; answers the stored upload, or throws an ApiError the queue acts on (api-failure). */
export async function uploadMedia(
  client: Pick<ProxyClient, 'send' | 'proxyUrl'>,
  body: Blob | Uint8Array<ArrayBuffer> | ArrayBuffer,
  options: UploadOptions,
): Promise<UploadAnswer> {
  const query = options.name ? `?name=${encodeURIComponent(options.name)}` : '';
  let response: Response;
  try {
    response = await client.send(`/proxy/uploads${query}`, { method: 'POST', headers: { 'Content-Type': options.contentType }, body, signal: options.signal });
  } catch {
    throw new ApiError({ kind: 'network', message: `Cannot reach the proxy at ${client.proxyUrl}.` });
  }
  const text = await textUpTo(response, UPLOAD_ANSWER_MAX_BYTES);
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) throw new ApiError(uploadFailure(response.status, json, response.headers.get('retry-after')));
  const answer = v.safeParse(uploadAnswerSchema, json);
  if (text === null || !answer.success || !/^https?:\/\//.test(answer.output.url)) {
    throw new ApiError({ kind: 'service', status: response.status, code: 'unexpected_answer', message: t('upload.error.answer', { url: client.proxyUrl }) });
  }
  return answer.output;
}
