/**
 * Bench only: `PUT /__bench/r2/<key>?via=body|fixed|transform` writes its body (Content-Length
 * required) to the MEDIA bucket, the proxy's media store, with nothing of the proxy on the way:
 * - `body`: `put(key, request.body)`, the floor;
 * - `fixed`: through a FixedLengthStream, as the proxy hands its bytes to R2;
 * - `transform`: through a TransformStream in JS that passes each chunk on, then the
 *   FixedLengthStream: the hop through JS the proxy's checks take, without the checks.
 * Answers 201 `{ size }`. `DELETE /__bench/r2/<key>` deletes the object (204).
 */

/** The part of the Workers runtime used here (scripts are type-checked without the Workers types). */
interface Env {
  MEDIA: {
    put(key: string, value: ReadableStream<Uint8Array>, options: { httpMetadata: { contentType: string } }): Promise<{ size: number } | null>;
    delete(key: string): Promise<void>;
  };
}
declare const FixedLengthStream: new (length: number) => TransformStream<Uint8Array, Uint8Array>;

const PREFIX = '/__bench/r2/';
const answer = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (!url.pathname.startsWith(PREFIX) || url.pathname.length === PREFIX.length) return answer(404, { error: 'not a bench route' });
    const key = `bench/${url.pathname.slice(PREFIX.length)}`;
    if (request.method === 'DELETE') return (await env.MEDIA.delete(key), answer(204));
    if (request.method !== 'PUT') return answer(405, { error: 'PUT or DELETE' });
    const length = Number(request.headers.get('content-length'));
    if (!request.body || !Number.isInteger(length) || length <= 0) return answer(411, { error: 'a body with a Content-Length is required' });
    const via = url.searchParams.get('via') ?? 'body';
    let value: ReadableStream<Uint8Array>;
    let piping: Promise<void> = Promise.resolve();
    if (via === 'body') value = request.body;
    else if (via === 'fixed' || via === 'transform') {
      const fixed = new FixedLengthStream(length);
      const source = via === 'fixed' ? request.body : request.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, controller) => controller.enqueue(chunk) }));
      piping = source.pipeTo(fixed.writable);
      value = fixed.readable;
    } else return answer(400, { error: 'via: body, fixed or transform' });
    const [stored] = await Promise.all([env.MEDIA.put(key, value, { httpMetadata: { contentType: request.headers.get('content-type') ?? 'application/octet-stream' } }), piping]);
    return stored ? answer(201, { size: stored.size }) : answer(500, { error: 'not stored' });
  },
};
