import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb, DB_NAME } from '@/lib/storage/database';
import { getConnection, markNeedsReconnect, setConnection } from '@/lib/storage/stored-connection';

afterEach(async () => {
  await closeDb();
  await deleteDB(DB_NAME);
});

describe('stored connection', () => {
  it('is empty until connected, then kept in the extension database', async () => {
    expect(await getConnection()).toBeNull();
    await setConnection({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
    expect(await getConnection()).toEqual({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
  });
  it('remembers that the proxy refused the token', async () => {
    await setConnection({ proxyUrl: 'https://ark.example.dev', token: 'abk_x' });
    await markNeedsReconnect();
    expect(await getConnection()).toMatchObject({ needsReconnect: true });
  });
});
