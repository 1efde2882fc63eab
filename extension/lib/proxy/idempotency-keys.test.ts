import { beforeEach, describe, expect, it } from 'vitest';
import { KEY_LIFETIME_MS, keyForCreate, settleCreate } from '@/lib/proxy/idempotency-keys';
import { resetState } from '@/lib/testing/test-setup';

beforeEach(async () => {
  await resetState();
});

describe('Idempotency-Keys of creates without a record', () => {
  const body = { Name: 'Cats', Description: '' };

  it('gives every repeat of a pending create the same key, kept in IndexedDB', async () => {
    const first = await keyForCreate('CreateAssetGroup', body);
    expect(await keyForCreate('CreateAssetGroup', { ...body })).toBe(first);
  });

  it('gives a different create its own key', async () => {
    const cats = await keyForCreate('CreateAssetGroup', body);
    expect(await keyForCreate('CreateAssetGroup', { ...body, Name: 'Dogs' })).not.toBe(cats);
  });

  it('never sends a key again once its create is settled', async () => {
    const first = await keyForCreate('CreateAssetGroup', body);
    await settleCreate('CreateAssetGroup', body);
    expect(await keyForCreate('CreateAssetGroup', body)).not.toBe(first);
  });

  it('drops a key the proxy no longer remembers', async () => {
    const first = await keyForCreate('CreateAssetGroup', body, 0);
    expect(await keyForCreate('CreateAssetGroup', body, KEY_LIFETIME_MS - 1)).toBe(first);
    expect(await keyForCreate('CreateAssetGroup', body, KEY_LIFETIME_MS)).not.toBe(first);
  });
});
