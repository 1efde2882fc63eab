import { describe, expect, it } from 'vitest';
import { classifyResolveError } from '@/lib/portrait/portrait-resolve';
import { ApiError } from '@/lib/proxy/api-failure';

describe('ResolvePartnerToken failures', () => {
  it('reads ValidationError as pending unless it says expired or already resolved', () => {
    const rejected = (message: string, code = 'ValidationError') => new ApiError({ kind: 'rejected', status: 400, code, message });
    expect(classifyResolveError(rejected('PartnerToken: the person has not completed authorization and capture yet; retry later.'))).toBe('pending');
    expect(classifyResolveError(rejected('PartnerToken: this session has expired; create a new portrait session.'))).toBe('expired');
    expect(classifyResolveError(rejected('PartnerToken: this session expired at 2026-11-22T09:05:00.000Z; create a new session.'))).toBe('expired');
    expect(classifyResolveError(rejected('PartnerToken: this handle was already resolved and is no longer valid.'))).toBe('used');
    expect(classifyResolveError(rejected('nope', 'AccessDenied'))).toBe('failed');
    expect(classifyResolveError(new ApiError({ kind: 'network', message: 'offline' }))).toBe('transient');
    expect(classifyResolveError(new ApiError({ kind: 'unauthorized', message: 'no' }))).toBe('failed');
  });
});
