import { beforeEach, describe, expect, it, vi } from 'vitest';
import { usage, USAGE } from '@/lib/budget/testing/usage-fixture';
import { readUsage, refreshUsage } from '@/lib/budget/usage-refresh';
import { getConnection } from '@/lib/storage/stored-connection';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { connect, proxyTestbed } from '@/lib/testing/test-setup';

let proxy: FakeProxy;

beforeEach(async () => {
  ({ proxy } = await proxyTestbed());
  vi.stubGlobal('fetch', proxy.fetch);
  await connect();
  return () => void vi.unstubAllGlobals();
});

describe('the stored budget', () => {
  it('is read from the proxy and kept for the next opening', async () => {
    expect(await readUsage()).toBeUndefined();
    proxy.usage = USAGE;
    await refreshUsage();
    expect(await readUsage()).toEqual(USAGE);
    expect(proxy.actions()).toEqual(['/proxy/usage']);
  });

  it('is null from a proxy without budgets (404): nothing to show, no error', async () => {
    await refreshUsage();
    expect(await readUsage()).toBeNull();
  });

  it('keeps the last one when the proxy cannot be reached, and records a refused token', async () => {
    proxy.usage = USAGE;
    await refreshUsage();
    proxy.usage = usage({ spent: 50 });
    proxy.failNext('/proxy/usage', { kind: 'network' });
    await refreshUsage();
    expect(await readUsage()).toEqual(USAGE);
    proxy.tokens.clear();
    await refreshUsage();
    expect((await getConnection())?.needsReconnect).toBe(true);
  });

  it('is never another member’s or another proxy’s', async () => {
    proxy.usage = USAGE;
    await refreshUsage();
    await connect({ memberName: 'Grace' });
    expect(await readUsage()).toBeUndefined();
    await connect({ proxyUrl: 'https://other.test' });
    expect(await readUsage()).toBeUndefined();
  });
});
