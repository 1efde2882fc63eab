/**
 * Exclusive Web Locks for tests: Node 20 (where the extension tests run) has no `navigator.locks`.
 * Enough of LockManager for the extension: `request(name, [{ ifAvailable }], callback)`, queued
 * in order, and `query()`'s held locks. Installed with `installWebLocks()`, removed by the returned
 * function.
 */
class TestLockManager {
  readonly #held = new Set<string>();
  readonly #queues = new Map<string, (() => void)[]>();

  async request<T>(name: string, ...args: [(lock: { name: string } | null) => Promise<T> | T] | [{ ifAvailable?: boolean }, (lock: { name: string } | null) => Promise<T> | T]): Promise<T> {
    const [options, callback] = args.length === 1 ? [{}, args[0]] : args;
    if (this.#held.has(name)) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve) => (this.#queues.get(name) ?? this.#queues.set(name, []).get(name)!).push(resolve));
    }
    this.#held.add(name);
    try {
      return await callback({ name });
    } finally {
      const next = this.#queues.get(name)?.shift();
      if (next) next();
      else this.#held.delete(name);
    }
  }

  async query(): Promise<{ held: { name: string }[] }> {
    return { held: [...this.#held].map((name) => ({ name })) };
  }
}

export function installWebLocks(): () => void {
  Object.defineProperty(navigator, 'locks', { value: new TestLockManager(), configurable: true });
  return () => void delete (navigator as { locks?: unknown }).locks;
}
