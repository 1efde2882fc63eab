import { describe, expect, it } from 'vitest';
import { Signer } from '../../shared/signing/signer';
import { DEV, ORIGIN, sandboxFetch } from './testing/sandbox-test-client';

/**
 * The sandbox verifies a signature over the headers the caller lists in SignedHeaders: any sorted
 * list with host and x-date whose headers are all sent, as the vendor's Python signer makes them
 * (content-type, host and every x-* header it sends). Each broken rule is a 401 naming it.
 */

const PYTHON_LIST = ['content-type', 'host', 'x-content-sha256', 'x-date', 'x-request-id'];
const QUERY = '/api/v3?Action=ListAssetGroups&Version=2024-01-01';

async function signed(list: string[], extra?: Record<string, string>, body = '{"PageSize":5}') {
  const url = new URL(QUERY, ORIGIN);
  const { headers, body: bytes } = await new Signer(DEV, list).sign(url, body, undefined, extra);
  return { headers: { ...headers } as Record<string, string>, body: bytes as Uint8Array };
}

async function send(req: { headers: Record<string, string>; body: Uint8Array }) {
  const response = await sandboxFetch(QUERY, { method: 'POST', headers: req.headers, body: req.body });
  const envelope = (await response.json()) as { ResponseMetadata: { Error?: { Code: string; Message: string } } };
  return { status: response.status, error: envelope.ResponseMetadata.Error };
}

const refused = (message: RegExp) => ({ status: 401, error: { Code: 'SignatureDoesNotMatch', Message: expect.stringMatching(message) } });

describe('a Python-style header list', () => {
  it('content-type signed and an extra X-Request-Id: accepted', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-1' });
    expect(req.headers.Authorization).toContain('SignedHeaders=content-type;host;x-content-sha256;x-date;x-request-id,');
    expect(await send(req)).toEqual({ status: 200, error: undefined });
  });

  it('its X-Request-Id changed after signing: refused (a listed header is signed)', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-2' });
    req.headers['X-Request-Id'] = 'python-style-3';
    expect(await send(req)).toMatchObject(refused(/signature does not match/));
  });
});

describe('a refused header list: 401 SignatureDoesNotMatch naming the rule', () => {
  it('an unsorted list, even signed consistently', async () => {
    expect(await send(await signed(['x-date', 'host', 'content-type', 'x-content-sha256']))).toMatchObject(refused(/SignedHeaders must be sorted/));
  });

  it('a listed header the request does not send', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-4' });
    delete req.headers['X-Request-Id'];
    expect(await send(req)).toMatchObject(refused(/SignedHeaders lists x-request-id, which the request does not send/));
  });

  it('a list without host, or without x-date, even signed consistently', async () => {
    expect(await send(await signed(['content-type', 'x-content-sha256', 'x-date']))).toMatchObject(refused(/SignedHeaders must include host/));
    expect(await send(await signed(['content-type', 'host', 'x-content-sha256']))).toMatchObject(refused(/SignedHeaders must include x-date/));
  });

  it('an X-Content-Sha256 that is not the body\'s hash', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-5' });
    req.headers['X-Content-Sha256'] = (await signed(PYTHON_LIST, { 'X-Request-Id': 'x' }, '{"PageSize":6}')).headers['X-Content-Sha256']!;
    expect(await send(req)).toMatchObject(refused(/X-Content-Sha256 does not match the SHA-256 of the request body/));
  });

  it('a body changed after signing', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-6' });
    req.body = new TextEncoder().encode('{"PageSize":6}');
    expect(await send(req)).toMatchObject(refused(/X-Content-Sha256 does not match the SHA-256 of the request body/));
  });

  it('a signature changed after signing', async () => {
    const req = await signed(PYTHON_LIST, { 'X-Request-Id': 'python-style-7' });
    req.headers.Authorization = req.headers.Authorization!.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect(await send(req)).toMatchObject(refused(/signature does not match the signature computed by the server/));
  });
});
