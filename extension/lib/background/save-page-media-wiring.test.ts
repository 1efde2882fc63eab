import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import background from '@/entrypoints/background';
import { passInProgress } from '@/lib/messaging/sync-soon';
import { db } from '@/lib/storage/database';
import { backgroundTestbed, connect, putGroup } from '@/lib/testing/test-setup';

/** The service worker answers the side panel's `arkbridge:save-page-media` (answered asynchronously, through sendResponse). */

beforeEach(async () => {
  await backgroundTestbed();
  await connect();
  await putGroup({ id: 'g1', name: 'Moodboard' });
});

afterEach(async () => {
  await passInProgress();
  vi.clearAllTimers();
  vi.useRealTimers();
});

/** Delivers a message as the browser does; answers what the worker sent back (undefined: not answered). */
async function deliver(message: unknown, senderId = fakeBrowser.runtime.id): Promise<unknown> {
  let answer: (value: unknown) => void;
  const answered = new Promise((resolve) => (answer = resolve));
  const returned = await fakeBrowser.runtime.onMessage.trigger(message, { id: senderId }, (value: unknown) => answer(value));
  return (returned as unknown[]).includes(true) ? answered : undefined;
}

describe('background: arkbridge:save-page-media', () => {
  it('saves each item and answers one result per item', async () => {
    background.main();
    const reply = (await deliver({
      type: 'arkbridge:save-page-media',
      groupId: 'g1',
      tabId: 7,
      items: [
        { url: 'https://cdn.example.com/fox.jpg', type: 'Image', name: 'Fox' },
        { url: 'file:///fox.jpg', type: 'Image' },
      ],
    })) as { results: { ok: boolean }[] };
    expect(reply.results.map((r) => r.ok)).toEqual([true, false]);
    expect(await (await db()).getAll('assets')).toMatchObject([{ url: 'https://cdn.example.com/fox.jpg', name: 'Fox', groupId: 'g1' }]);
  });

  it('leaves a malformed message or another extension unanswered, and saves nothing', async () => {
    background.main();
    expect(await deliver({ type: 'arkbridge:save-page-media', groupId: 'g1', tabId: 7, items: [] })).toBeUndefined();
    expect(await deliver({ type: 'arkbridge:save-page-media', groupId: 'g1', tabId: 7, items: [{ url: 'https://cdn.example.com/a.png', type: 'Image' }] }, 'someone-else')).toBeUndefined();
    expect(await (await db()).getAll('assets')).toEqual([]);
  });
});
