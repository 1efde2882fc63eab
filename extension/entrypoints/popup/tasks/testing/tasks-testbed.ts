import { afterEach, beforeEach } from 'vitest';
import { unmount } from '@/components/dom-testing';
import { VideoFakeProxy } from '@/lib/tasks/testing/fake-video';
import { connect, resetState } from '@/lib/testing/test-setup';

/**
 * A Tasks view test file's setup: before each test, fresh state, a connection and a VideoFakeProxy
 * behind `fetch`; after it, the view unmounted and `fetch` given back. Answers the current proxy.
 */
export function useTasksTestbed(): () => VideoFakeProxy {
  const realFetch = globalThis.fetch;
  let proxy: VideoFakeProxy | undefined;
  beforeEach(async () => {
    await resetState();
    await connect();
    proxy = new VideoFakeProxy();
    globalThis.fetch = proxy.fetch;
  });
  afterEach(() => {
    unmount();
    globalThis.fetch = realFetch;
  });
  return () => proxy!;
}
