import { describe, expect, it } from 'vitest';
import { relayLibrary } from './library-relay';

const envelope = (error?: { Code: string; Message: string }, result: unknown = {}) =>
  JSON.stringify({ ResponseMetadata: { RequestId: 'r', Action: 'ResolvePartnerToken', Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing', ...(error ? { Error: error } : {}) }, ...(error ? {} : { Result: result }) });

describe('relayLibrary', () => {
  it("passes the service's bytes on unchanged (spacing, escapes), whatever the names in them", () => {
    const body = JSON.stringify(JSON.parse(envelope(undefined, { Name: 'Bearer "x HMAC-SHA256 "q sk-abcdefgh', Score: 1.0 })), null, 1).replace('"Score": 1', '"Score": 1.0');
    const relayed = relayLibrary('GetAssetGroup', { status: 200, body, retryAfter: null });
    expect(relayed.accepted).toBe(true);
    expect(relayed.response.body).toBe(body);
  });

  it('withholds an answer that repeats a secret the call carried (a partner token), keeping the code', () => {
    const token = 'pt-secret-0123456789';
    const body = envelope({ Code: 'ValidationError', Message: `PartnerToken ${token} is not valid.` });
    const relayed = relayLibrary('ResolvePartnerToken', { status: 200, body, retryAfter: null }, [token]);
    expect(relayed.accepted).toBe(false);
    expect(relayed.response.body).not.toContain(token);
    expect(JSON.parse(relayed.response.body).ResponseMetadata.Error.Code).toBe('ValidationError');
  });

  it('ends a 5xx message with one full stop when the service message has its own', () => {
    const body = envelope({ Code: 'InternalError', Message: 'Internal error.' });
    const relayed = relayLibrary('GetAsset', { status: 500, body, retryAfter: null });
    expect(JSON.parse(relayed.response.body).ResponseMetadata.Error.Message).toBe('The asset library service answered HTTP 500: InternalError Internal error. Try again later.');
  });
});
