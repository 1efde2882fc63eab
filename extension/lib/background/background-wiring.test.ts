import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import background from '@/entrypoints/background';
import { ALARM } from '@/lib/background/background-sync';
import { passInProgress } from '@/lib/messaging/sync-soon';
import { addToLibrary } from '@/lib/saving/add-to-library';
import { closeDb, db } from '@/lib/storage/database';
import { FakeProxy } from '@/lib/testing/fake-proxy';
import { backgroundTestbed, type BrowserMocks, connect } from '@/lib/testing/test-setup';

/** The service worker entrypoint: a worker started from nothing resumes from IndexedDB when woken. */

let proxy: FakeProxy;
let mocks: BrowserMocks;

beforeEach(async () => {
  ({ proxy, mocks } = await backgroundTestbed());
  await connect();
});

afterEach(() => {
  vi.clearAllTimers();
  vi.useRealTimers();
});

/** Waits for the pass a browser event started, if it started one (never starts one itself). */
const settle = () => passInProgress();

describe('background entrypoint', () => {
  it('resumes queued work when the sync alarm wakes a fresh worker', async () => {
    const { record } = await addToLibrary({ groupId: 'g1', url: 'https://cdn.example.com/cat.png', name: 'cat', type: 'Image' });
    await closeDb(); // the previous worker is gone
    background.main();
    await fakeBrowser.alarms.onAlarm.trigger({ name: ALARM, scheduledTime: Date.now(), persistAcrossSessions: true });
    await settle();
    expect(proxy.callsOf('CreateAsset').map((c) => c.idempotencyKey)).toEqual([record.idempotencyKey]);
    expect(await (await db()).get('assets', record.localId)).toMatchObject({ status: 'Processing' });
  });

  it('ignores other alarms and messages from other extensions', async () => {
    await addToLibrary({ groupId: 'g1', url: 'https://cdn.example.com/cat.png', name: 'cat', type: 'Image' });
    background.main();
    await fakeBrowser.alarms.onAlarm.trigger({ name: 'other', scheduledTime: Date.now(), persistAcrossSessions: true });
    await fakeBrowser.runtime.onMessage.trigger({ type: 'arkbridge:sync' }, { id: 'someone-else' }, () => {});
    await settle();
    expect(proxy.calls).toEqual([]);
    await fakeBrowser.runtime.onMessage.trigger({ type: 'arkbridge:sync' }, { id: fakeBrowser.runtime.id }, () => {});
    await settle();
    expect(proxy.actions()).toContain('CreateAsset');
  });

  it('builds the menu on install', async () => {
    background.main();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' } as any);
    await settle();
    await vi.waitFor(() => expect(mocks.create).toHaveBeenCalled());
    expect(mocks.removeAll).toHaveBeenCalled();
  });
});
