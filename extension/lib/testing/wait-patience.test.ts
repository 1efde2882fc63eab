import { describe, expect, it, vi } from 'vitest';

describe('vi.waitFor in the extension tests', () => {
  it('waits past the one second vitest gives by default, for a state that comes later', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 1_300);
    await vi.waitFor(() => expect(ready).toBe(true));
  });

  it('keeps a timeout a test names', async () => {
    await expect(vi.waitFor(() => expect(false).toBe(true), { timeout: 100 })).rejects.toThrow();
  });
});
