import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { freePort } from './wrangler-dev';

it('chooses a port below the kernels\' ephemeral ranges, which outgoing connections never take', async () => {
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(32_000);
  }
});

it('passes over a port that is taken and answers a free one', async () => {
  const held = await freePort();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(held, '127.0.0.1', resolve));
  try {
    // The first draw lands on the held port, the second elsewhere.
    const draws = [(held - 20_000 + 0.5) / 12_000, 0.5];
    const port = await freePort(() => draws.shift() ?? Math.random());
    expect(port).not.toBe(held);
    expect(draws).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
