import VendorSigner from '@volcengine/openapi/lib/base/sign';
import { describe, expect, it, vi } from 'vitest';
import { DEV, ORIGIN, sandboxFetch, uniqueTag } from './testing/sandbox-test-client';

/**
 * The vendor's Node signer (`@volcengine/openapi`, unmodified) against the sandbox: it signs
 * `host;x-content-sha256;x-date` (never content-type), which the sandbox verifies as the service
 * does, over the headers the caller lists.
 */

/**
 * The vendor's `addAuthorization`, its debug log (`util.debuglog('signer')`, which workerd prints
 * whatever NODE_DEBUG says) kept out of the test output.
 */
function vendorSign(request: ConstructorParameters<typeof VendorSigner>[0], secretKey: string): void {
  const quiet = [vi.spyOn(console, 'log').mockImplementation(() => undefined), vi.spyOn(console, 'debug').mockImplementation(() => undefined)];
  try {
    new VendorSigner(request, 'ark').addAuthorization({ accessKeyId: DEV.accessKeyId, secretKey });
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
}

/** Signs a POST /api/v3 with the vendor's Signer, the way its own Service builds the request, and sends it. */
async function vendorCall(action: string, body: unknown) {
  const request = {
    region: 'cn-beijing',
    method: 'POST',
    pathname: '/api/v3',
    params: { Action: action, Version: '2024-01-01' },
    headers: { Host: new URL(ORIGIN).host, 'Content-Type': 'application/json' } as Record<string, string>,
    body: JSON.stringify(body),
  };
  vendorSign(request, DEV.secretAccessKey);
  const response = await sandboxFetch(`/api/v3?Action=${action}&Version=2024-01-01`, { method: 'POST', headers: request.headers, body: request.body });
  const envelope = (await response.json()) as { ResponseMetadata: { Error?: { Code: string; Message: string } }; Result?: any };
  return { status: response.status, authorization: request.headers.Authorization!, error: envelope.ResponseMetadata.Error, result: envelope.Result };
}

describe("the vendor's Node signer", () => {
  it('signs CreateAssetGroup, ListAssetGroups and GetAssetGroup that the sandbox answers with 200', async () => {
    const name = uniqueTag('vendor-node');
    const created = await vendorCall('CreateAssetGroup', { Name: name });
    expect(created.authorization).toContain('SignedHeaders=host;x-content-sha256;x-date,');
    expect(created).toMatchObject({ status: 200, error: undefined });
    const id = created.result.Id as string;

    const listed = await vendorCall('ListAssetGroups', { Filter: { Name: name } });
    expect(listed).toMatchObject({ status: 200, error: undefined });
    expect(listed.result.Items.map((group: { Id: string }) => group.Id)).toEqual([id]);

    const got = await vendorCall('GetAssetGroup', { Id: id });
    expect(got).toMatchObject({ status: 200, error: undefined, result: { Id: id, Name: name } });
  });

  it('is refused with the wrong secret: the sandbox does check its signature', async () => {
    const request = {
      region: 'cn-beijing', method: 'POST', pathname: '/api/v3', params: { Action: 'ListAssetGroups', Version: '2024-01-01' },
      headers: { Host: new URL(ORIGIN).host } as Record<string, string>, body: '{}',
    };
    vendorSign(request, 'not-the-secret');
    const response = await sandboxFetch('/api/v3?Action=ListAssetGroups&Version=2024-01-01', { method: 'POST', headers: request.headers, body: request.body });
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).ResponseMetadata.Error).toMatchObject({ Code: 'SignatureDoesNotMatch', Message: expect.stringMatching(/signature does not match/) });
  });
});
