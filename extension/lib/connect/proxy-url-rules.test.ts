import { describe, expect, it } from 'vitest';
import { normalizeProxyUrl, originPattern, tokenProblem } from '@/lib/connect/proxy-url-rules';

describe('proxy URL rules', () => {
  it('accepts https and reduces it to the origin', () => {
    expect(normalizeProxyUrl(' https://ark.example.dev/some/path ')).toEqual({ ok: true, url: 'https://ark.example.dev' });
  });
  it('accepts plain http only for the local stack', () => {
    expect(normalizeProxyUrl('http://127.0.0.1:8787')).toEqual({ ok: true, url: 'http://127.0.0.1:8787' });
    expect(normalizeProxyUrl('http://ark.example.dev')).toMatchObject({ ok: false, message: expect.stringContaining('https://') });
  });
  it('rejects text that is not a URL and URLs with credentials, naming the field', () => {
    expect(normalizeProxyUrl('ark.example.dev')).toMatchObject({ ok: false, message: expect.stringMatching(/^Proxy URL:/) });
    expect(normalizeProxyUrl('https://me:pw@ark.example.dev')).toMatchObject({ ok: false, message: expect.stringMatching(/user name/) });
  });
  it('asks for access to exactly the proxy origin', () => {
    expect(originPattern('https://ark.example.dev')).toBe('https://ark.example.dev/*');
  });
});

describe('member token shape', () => {
  it('accepts a well-formed token and names the field otherwise', () => {
    expect(tokenProblem(`abk_m0123456789abcdef_${'a'.repeat(43)}`)).toBeNull();
    expect(tokenProblem('')).toMatch(/^Member token:/);
    expect(tokenProblem('sk-123')).toMatch(/^Member token: .*abk_/);
  });
});
