import { useEffect, useState } from 'preact/hooks';
import type { StoreName } from '@/lib/storage/database';
import { onChange } from '@/lib/storage/store-changes';

/**
 * Reads from IndexedDB for a view and reads again whenever one of `stores` changes in any context
 * (the background's sync, another view). First paint comes from IndexedDB, never the network.
 */
export function useDb<T>(read: () => Promise<T>, stores: StoreName[], deps: unknown[] = []): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    let alive = true;
    const load = () => void read().then((v) => alive && setValue(() => v));
    load();
    const stop = onChange((changed) => {
      if (changed.some((s) => stores.includes(s))) load();
    });
    return () => {
      alive = false;
      stop();
    };
  }, deps);
  return value;
}
