/**
 * Every record of one store of the extension's database, read inside an extension page or its
 * service worker (passed whole to `evaluate`, so it refers to nothing outside itself). A database
 * or store not yet made by the extension reads as empty: it is never created here, the extension's
 * own upgrade must do that.
 */
export function readStoreInPage(name: string): Promise<unknown[]> {
  return new Promise<unknown[]>((resolve, reject) => {
    const open = indexedDB.open('arkbridge');
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => resolve([]);
    open.onsuccess = () => {
      const database = open.result;
      if (!database.objectStoreNames.contains(name)) {
        database.close();
        return resolve([]);
      }
      const all = database.transaction(name).objectStore(name).getAll();
      all.onsuccess = () => {
        database.close();
        resolve(all.result as unknown[]);
      };
      all.onerror = () => {
        database.close();
        reject(all.error);
      };
    };
  });
}
