/**
 * A `fetch` whose request body reports how much of it was sent: XMLHttpRequest's upload events,
 * which fetch has no equivalent of (Chromium streams a request body only over HTTP/2, and a
 * streamed body has no Content-Length, which the proxy requires before it reads a byte). Only
 * where XMLHttpRequest exists: extension pages, Firefox's background page, Chrome's offscreen
 * document; never in a service worker.
 *
 * @see https://xhr.spec.whatwg.org/#the-upload-attribute
 */

/** Bytes of the body sent so far, of `total`. */
export type SendProgress = (sent: number, total: number) => void;

/** Most bytes of an answer taken: the caller reads a bounded answer (a 201 is a few hundred bytes). */
export const XHR_ANSWER_MAX_BYTES = 1024 * 1024;

/** Response headers as XMLHttpRequest gives them (`name: value` lines), split once each: linear. */
export function parseResponseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header name the Headers class refuses is dropped, as fetch would never have shown it.
    }
  }
  return headers;
}

/** A fetch for requests with a body whose sending is counted (see above). */
export function xhrFetch(onProgress: SendProgress, maxAnswerBytes = XHR_ANSWER_MAX_BYTES): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : String(input));
      xhr.responseType = 'arraybuffer';
      new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
      // An answer larger than any the caller reads is not taken into memory.
      xhr.onprogress = (event) => {
        if (event.loaded > maxAnswerBytes) xhr.abort();
      };
      xhr.onload = () => {
        const body = xhr.status === 204 || xhr.status === 304 ? null : (xhr.response as ArrayBuffer | null);
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: parseResponseHeaders(xhr.getAllResponseHeaders()) }));
      };
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.onabort = () => reject(init.signal?.aborted ? (init.signal.reason ?? new DOMException('Aborted', 'AbortError')) : new TypeError('Answer too large'));
      if (init.signal?.aborted) return xhr.abort();
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
