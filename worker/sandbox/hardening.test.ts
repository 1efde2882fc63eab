import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { BODY_LIMITS, ECHO_MAX, JSON_DEPTH_MAX } from '../../shared';
import { AUTHORIZATION_MAX } from './auth/verify-signature';
import type { SandboxEnv } from './env';
import { api, DEV, helper, sandboxFetch, signedFetch, uniqueTag, v1 } from './testing/sandbox-test-client';

/**
 * One request never hurts the sandbox: bodies over the limit are refused before they are read (413
 * in each interface's shape), bytes that are not UTF-8 and JSON nested too deep are refused naming
 * the body, echoes of caller input are clipped, and messages are one sentence. The regressions the
 * fuzz tests found are at the end, each named by its behaviour.
 */

const MODEL = 'doubao-seedance-2-0-260128';
const MB = 1024 * 1024;
const encoder = new TextEncoder();
const state = () => {
  const ns = (env as unknown as SandboxEnv).SERVICE;
  return ns.get(ns.idFromName('service'));
};

/** A body of `size` bytes as a stream, with no Content-Length: the limit must count as it reads. */
function streamOf(size: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(chunk, size - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
}

/** A signed `/api/v3` call over exact bytes; answers status and envelope. */
async function signed(action: string, body: Uint8Array) {
  const res = await signedFetch(`Action=${encodeURIComponent(action)}&Version=2024-01-01`, body);
  return { status: res.status, body: (await res.json()) as any };
}

const BAD_UTF8 = new Uint8Array([...encoder.encode('{"Name":"caf'), 0xc3, 0x28, ...encoder.encode('"}')]);
const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** 1,000,000 levels in 1,000,000 bytes (under the 1 MB JSON limit): never closed. */
const MILLION_OPEN = '['.repeat(1_000_000);

describe('body size: 413 before the body is read, in each interface shape', () => {
  const big = 32 * MB;

  it('/api/v3: a declared 32 MB body is a RequestTooLarge envelope (HTTP 413) naming the body and the limit', async () => {
    const res = await sandboxFetch('/api/v3?Action=CreateAssetGroup&Version=2024-01-01', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(big) },
      body: new Uint8Array(big),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as any;
    expect(body.ResponseMetadata).toMatchObject({ Action: 'CreateAssetGroup', Version: '2024-01-01', Error: { Code: 'RequestTooLarge' } });
    expect(body.ResponseMetadata.Error.Message).toMatch(/^body: must be at most 1 MB \(1048576 bytes\).*\.$/);
    expect(body).not.toHaveProperty('Result');
  });

  it('/api/v3: a 32 MB stream without Content-Length is refused once it passes 1 MB', async () => {
    const res = await sandboxFetch('/api/v3?Action=CreateAssetGroup&Version=2024-01-01', { method: 'POST', body: streamOf(big) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).ResponseMetadata.Error.Code).toBe('RequestTooLarge');
  });

  it('/v1/video/generations: 32 MB (declared, and streamed) is request_too_large with param body; 16 MB is the limit', async () => {
    const declared = await sandboxFetch('/v1/video/generations', {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEV.apiKey}`, 'Content-Type': 'application/json', 'Content-Length': String(big) },
      body: new Uint8Array(big),
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      error: { code: 'request_too_large', message: expect.stringMatching(/^body: must be at most 16 MB .*\.$/), type: 'invalid_request_error', param: 'body' },
    });
    const streamed = await sandboxFetch('/v1/video/generations', { method: 'POST', headers: { Authorization: `Bearer ${DEV.apiKey}` }, body: streamOf(big) });
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as any).error.code).toBe('request_too_large');
  });

  it('a Content-Length that understates the body does not get it past the limit', async () => {
    const res = await sandboxFetch('/sandbox/clock', { method: 'POST', headers: { 'Content-Length': '2' }, body: `{"advanceSeconds":0,"x":"${'a'.repeat(2 * MB)}"}` });
    expect(res.status).toBe(413);
  });

  it.each(['/sandbox/faults', '/sandbox/clock', '/sandbox/portrait/complete'])('%s: 413 {"error":"RequestTooLarge"} over 1 MB', async (path) => {
    const res = await sandboxFetch(path, { method: 'POST', headers: { 'Content-Length': String(big) }, body: new Uint8Array(big) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'RequestTooLarge', message: expect.stringMatching(/^body: must be at most 1 MB/) });
  });

  it('a body just under the limit is read and validated as usual', async () => {
    const padding = 'x'.repeat(BODY_LIMITS.json - 100);
    const res = await helper('POST', '/sandbox/clock', `{"advanceSeconds":0,"pad":"${padding}"}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('pad: is not a field of this call.');
  });
});

describe('bytes that are not UTF-8 are refused naming the body, never stored as U+FFFD', () => {
  it('/api/v3 (signed): ValidationError "body: is not valid UTF-8 text." and no group is created', async () => {
    const before = await state().fingerprint();
    const res = await signed('CreateAssetGroup', BAD_UTF8);
    expect(res.body.ResponseMetadata.Error).toEqual({ Code: 'ValidationError', Message: 'body: is not valid UTF-8 text.' });
    expect(await state().fingerprint()).toBe(before);
  });

  it('/v1/video/generations: 400 invalid_parameter, param body', async () => {
    const res = await sandboxFetch('/v1/video/generations', { method: 'POST', headers: { Authorization: `Bearer ${DEV.apiKey}` }, body: BAD_UTF8 });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_parameter', message: 'body: is not valid UTF-8 text.', type: 'invalid_request_error', param: 'body' } });
  });

  it('/sandbox/portrait/complete: 400 naming the body', async () => {
    const res = await sandboxFetch('/sandbox/portrait/complete', { method: 'POST', body: BAD_UTF8 });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'ValidationError', message: 'body: is not valid UTF-8 text.' });
  });
});

describe(`JSON nested deeper than ${JSON_DEPTH_MAX} levels is refused before parsing`, () => {
  it('1,000,000 levels (balanced, 2 MB) on /v1/video/generations: 400 naming the body', async () => {
    const res = await v1('POST', '/v1/video/generations', deep(1_000_000));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_parameter', param: 'body', message: `body: is nested deeper than ${JSON_DEPTH_MAX} levels.` });
  });

  it('1,000,000 levels on /api/v3 (signed): ValidationError naming the body', async () => {
    const res = await signed('ListAssetGroups', encoder.encode(MILLION_OPEN));
    expect(res.body.ResponseMetadata.Error).toEqual({ Code: 'ValidationError', Message: `body: is nested deeper than ${JSON_DEPTH_MAX} levels.` });
  });

  it('1,000,000 levels on /sandbox/faults: 400 naming the body', async () => {
    const res = await helper('POST', '/sandbox/faults', MILLION_OPEN);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`body: is nested deeper than ${JSON_DEPTH_MAX} levels.`);
  });
});

describe('caller input is echoed at most clipped', () => {
  it('a 64 KB unknown Action: ValidationError naming Action, clipped in the message and in ResponseMetadata.Action', async () => {
    const action = `X${'A'.repeat(64 * 1024 - 1)}`;
    const res = await api(action, {});
    expect(res.error?.Code).toBe('ValidationError');
    expect(res.error!.Message).toMatch(/^Action: "XA+… \(65536 characters\)" is not an operation of this interface\.$/);
    expect(res.error!.Message.length).toBeLessThan(200);
    expect(res.envelope.ResponseMetadata.Action).toBe(`X${'A'.repeat(ECHO_MAX - 1)}… (65536 characters)`);
    expect(JSON.stringify(res.envelope).length).toBeLessThan(600);
  });

  it('an unknown key of 100,000 characters is named clipped', async () => {
    const key = 'k'.repeat(100_000);
    const res = await api('CreateAssetGroup', { Name: 'a', [key]: 1 });
    expect(res.error?.Message).toBe(`${'k'.repeat(ECHO_MAX)}… (100000 characters): is not a parameter of this operation.`);
  });

  it('an unknown model id of 100,000 characters is clipped wherever the message repeats it', async () => {
    const model = 'm'.repeat(100_000);
    const res = await v1('POST', '/v1/video/generations', { model, prompt: 'x', duration: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('duration');
    expect(res.body.error.message.length).toBeLessThan(200);
    expect(res.body.error.message).toContain('… (100000 characters)');
  });
});

describe('signature checks stay bounded whatever the query and headers', () => {
  it('100,000 signed query parameters are all canonicalised: the signature matches and the call succeeds', async () => {
    // Keys of one length: the proxy's signer sorts whole `key=value` pairs, the service sorts by key,
    // and the two orders differ when one key is a prefix of another (`p1`, `p10`). A mismatch in
    // any one of the 100,000 would be a 401 SignatureDoesNotMatch.
    const many = Array.from({ length: 100_000 }, (_, i) => `p${String(i).padStart(6, '0')}=${i}`).join('&');
    const res = await signedFetch(`Action=ListAssetGroups&Version=2024-01-01&${many}`, encoder.encode('{}'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { Result?: unknown }).Result).toBeDefined();
  });

  it('a 64 KB Authorization header is refused by its length, before any parsing', async () => {
    const junk = await sandboxFetch('/api/v3?Action=ListAssetGroups&Version=2024-01-01', {
      method: 'POST',
      headers: { Authorization: `HMAC-SHA256 Credential=${'A'.repeat(64 * 1024)}`, 'X-Date': '9'.repeat(64 * 1024) },
      body: '{}',
    });
    expect(junk.status).toBe(401);
    const body = (await junk.json()) as { ResponseMetadata: { Error: { Code: string; Message: string } } };
    expect(body.ResponseMetadata.Error).toEqual({ Code: 'SignatureDoesNotMatch', Message: `The Authorization header is longer than ${AUTHORIZATION_MAX} characters.` });
  });
});

describe('routes outside the interfaces', () => {
  it('an unknown path of 10,000 characters is a JSON 404 repeating it clipped', async () => {
    const res = await helper('GET', `/${'p'.repeat(10_000)}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: expect.stringContaining('… (10001 characters) is not a route of the sandbox.') });
  });

  it('a result video that does not exist is a JSON 404', async () => {
    const res = await helper('GET', '/sandbox/videos/cgt-none.mp4');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No completed video has this id.' });
  });
});

describe('messages are one sentence', () => {
  it('schema messages get exactly one full stop, on every interface', async () => {
    expect((await api('CreateAssetGroup', { Name: '' })).error?.Message).toBe('Name: must be 1 to 64 characters.');
    expect((await v1('POST', '/v1/video/generations', { model: MODEL })).body.error.message).toMatch(/^prompt: .*[^.]\.$/);
    expect((await helper('POST', '/sandbox/clock', { advanceSeconds: -1 })).body.message).toBe('advanceSeconds: must not be negative.');
    expect((await api('GetAssetGroup', { Id: 'group-none' })).error?.Message).toMatch(/[^.]\.$/);
  });
});

describe('regressions found by the fuzz tests', () => {
  it('advanceSeconds 1e308 is refused naming advanceSeconds (was: the clock overflowed, HTTP 500 on this and later calls)', async () => {
    const res = await helper('POST', '/sandbox/clock', { advanceSeconds: 1e308 });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^advanceSeconds: must be at most \d+/);
    expect((await helper('POST', '/sandbox/clock', { advanceSeconds: 0 })).status).toBe(200);
  });

  it('the clock runs at most 100 years ahead in all, one year per call', async () => {
    const year = 366 * 24 * 3600;
    let last = await helper('POST', '/sandbox/clock', { advanceSeconds: year });
    for (let i = 0; i < 120 && last.status === 200; i++) last = await helper('POST', '/sandbox/clock', { advanceSeconds: year });
    expect(last.status).toBe(400);
    expect(last.body.message).toMatch(/^advanceSeconds: the sandbox clock may run at most .* ahead in all/);
    expect((await api('ListAssetGroups', {})).status).toBe(200);
  });

  it('a string with an unpaired surrogate escape ("\\ud800") is refused naming its field (was: stored as U+FFFD, altered)', async () => {
    const name = uniqueTag('sur');
    const res = await api('CreateAssetGroup', undefined, { rawBody: `{"Name":"${name}\\ud800"}` });
    expect(res.error).toEqual({ Code: 'ValidationError', Message: expect.stringMatching(/^Name: must be valid Unicode text/) });
    expect((await api('ListAssetGroups', { Filter: { Name: name } })).result.TotalCount).toBe(0);
    // A correct pair is a real character and is kept exactly.
    const kept = await api('CreateAssetGroup', undefined, { rawBody: `{"Name":"${name}\\ud83d\\ude00"}` });
    expect((await api('GetAssetGroup', { Id: kept.result.Id })).result.Name).toBe(`${name}😀`);
  });

  it('a 3 MB data:image reference creates a task (was: HTTP 500, the reference did not fit in a storage row)', async () => {
    const png = 'iVBORw0KGgo' + 'A'.repeat(3 * MB);
    const res = await v1('POST', '/v1/video/generations', {
      model: MODEL,
      content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}=` }, role: 'reference_image' }],
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.status).toBe('queued');
  });

  it('an H5 page id that is not a session id is the missing page, and a query string is not repeated in the page', async () => {
    const res = await sandboxFetch(`/h5/portrait/${'z'.repeat(10_000)}?${'q'.repeat(10_000)}`);
    expect(res.status).toBe(404);
    expect((await res.text()).includes('qqqq')).toBe(false);
  });
});
