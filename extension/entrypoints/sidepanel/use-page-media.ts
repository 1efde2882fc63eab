import { useEffect, useState } from 'preact/hooks';
import { type PageMediaRead, readPageMedia } from '@/lib/page-media/read-page-media';

/** The media of tab `tabId`, read again whenever `version` moves or `reload` is called; undefined while reading. */
export function usePageMedia(tabId: number | null | undefined, version: number): { read: PageMediaRead | undefined; reload: () => void } {
  const [read, setRead] = useState<PageMediaRead>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (tabId == null) return;
    let alive = true;
    setRead(undefined);
    void readPageMedia(tabId).then(
      (result) => alive && setRead(result),
      () => alive && setRead({ ok: false, reason: 'no-access' }),
    );
    return () => void (alive = false);
  }, [tabId, version, attempt]);
  return { read, reload: () => setAttempt((n) => n + 1) };
}
