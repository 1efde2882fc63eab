import { afterEach } from 'vitest';
import { adminHeaders, proxyFetch } from './proxy-test-client';
import { advanceSandbox, runTracking } from './proxy-test-steps';

/**
 * Setup file of the proxy project: after each test, the tasks it left running are brought to
 * their end (the sandbox's clock moved on, each member's tracking run at once), so that no
 * background query of the tracking alarm lands in the next test's count of upstream calls.
 */
const ENDED = new Set(['completed', 'failed', 'expired']);

afterEach(async () => {
  for (let round = 0; round < 5; round++) {
    const r = await proxyFetch('/admin/tasks?limit=1000', { headers: adminHeaders() });
    if (!r.ok) return;
    const { tasks } = (await r.json()) as { tasks: { member: string; status: string }[] };
    const running = new Set(tasks.filter((t) => !ENDED.has(t.status)).map((t) => t.member));
    if (!running.size) return;
    await advanceSandbox(60);
    for (const member of running) await runTracking(member);
  }
}, 30_000);
