import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';

/**
 * Parts of the popup in chunks of their own (the tabs other than Library, an asset's detail),
 * imported with `import()` the first time they are shown, so that the first paint loads only the
 * Library tab. A small loader rather than preact/compat's lazy/Suspense, which would cost more
 * than it saves here.
 */
export interface Deferred<T> {
  /** The module, once loaded. */
  current(): T | undefined;
  /** Loads the module (once; again after a failure). Also used to start early, on intent. */
  load(): Promise<T>;
}

export function deferred<T>(importer: () => Promise<T>): Deferred<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    current: () => module,
    load: () =>
      (loading ??= importer().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
  };
}

export interface DeferredState<T> {
  module: T | undefined;
  failed: boolean;
  retry: () => void;
}

/**
 * The module of `part`, loaded while `wanted`: undefined until it arrives, then the component that
 * called this renders again (so that what it does after a render, e.g. moving focus, sees the part).
 */
export function useDeferred<T>(part: Deferred<T>, wanted = true): DeferredState<T> {
  const [, arrived] = useState(0);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const module = part.current();
  useEffect(() => {
    if (!wanted || module) return;
    let live = true;
    part.load().then(
      () => live && arrived((n) => n + 1),
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [part, wanted, module, attempt]);
  return {
    module,
    failed: failed && !module,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}

/** How long a part may take before "Loading…" shows (a chunk from the extension usually takes a few ms: no flash). */
export const PENDING_TEXT_DELAY_MS = 150;

/**
 * What stands in for a part while its chunk loads (a line of its own, so that nothing above moves
 * when the part arrives; its text after PENDING_TEXT_DELAY_MS), or when loading failed (with a retry).
 */
export function PartPending({ failed, onRetry }: { failed: boolean; onRetry: () => void }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), PENDING_TEXT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  if (failed) {
    return (
      <Banner tone="error">
        <p>{t('app.partNotLoaded')}</p>
        <button type="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </Banner>
    );
  }
  return (
    <p class="part-pending" role="status" aria-busy="true">
      {slow && t('app.loading')}
    </p>
  );
}

/** A part shown once its module has loaded (PartPending until then). */
export function Later<T>({ part, children }: { part: Deferred<T>; children: (module: T) => ComponentChildren }) {
  const { module, failed, retry } = useDeferred(part);
  return <>{module ? children(module) : <PartPending failed={failed} onRetry={retry} />}</>;
}
