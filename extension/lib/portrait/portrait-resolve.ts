import type { ResolvedPortrait } from '@@/shared';
import { clearSession } from '@/lib/portrait/portrait-store';
import { ApiError, isTransient } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { settingsStore } from '@/lib/storage/settings-store';
import '@/lib/i18n/portrait.en';

/**
 * The one place that calls ResolvePartnerToken. A handle resolves once (the service spends it), and
 * two contexts may check it: the popup while it shows the QR code, the background once the popup
 * is closed. Checks run under one Web Lock, and a successful answer is kept, so the context that
 * comes second reads the group instead of being told "already used".
 */

/** Held while one context checks a handle. */
export const RESOLVE_LOCK = 'arkbridge-portrait-resolve';
/** Held by a popup while it shows the Real person tab: the background leaves the checking to it. */
export const VIEW_LOCK = 'arkbridge-portrait-view';

export type Check =
  | { kind: 'resolved'; resolved: ResolvedPortrait }
  | { kind: 'failed'; error: unknown }
  /** Another context is checking right now (only when not waiting for it). */
  | { kind: 'busy' };

/** How a failed ResolvePartnerToken reads. */
export type ResolveOutcome = 'pending' | 'expired' | 'used' | 'transient' | 'failed';

/**
 * `ValidationError` is the service's "not finished yet" (the proxy passes it through), unless its
 * message says the session expired or was already resolved. Offline, busy, slow: check again.
 */
export function classifyResolveError(error: unknown): ResolveOutcome {
  if (!(error instanceof ApiError)) return 'failed';
  const failure = error.failure;
  if (failure.kind === 'rejected' && failure.code === 'ValidationError') {
    if (/expired/i.test(failure.message)) return 'expired';
    if (/already (been )?(resolved|used)/i.test(failure.message)) return 'used';
    return 'pending';
  }
  return isTransient(failure) ? 'transient' : 'failed';
}

const isResolved = (value: unknown): value is ResolvedPortrait =>
  !!value && typeof (value as ResolvedPortrait).GroupId === 'string' && !!(value as ResolvedPortrait).GroupId;

/** The group a handle resolved to, when this browser resolved it. */
export async function readResolved(handle: string): Promise<ResolvedPortrait | null> {
  const record = await settingsStore.get('portrait.resolved');
  return record?.handle === handle ? record.resolved : null;
}

/** Web Locks where the platform has them (browsers; not Node 20, where tests run the callback directly). */
const locks = (): LockManager | undefined => (typeof navigator === 'undefined' ? undefined : navigator.locks);

/**
 * Runs `task` holding lock `name`. With `ifAvailable`, answers `null` at once when another context
 * holds it.
 */
export async function withLock<T>(name: string, task: () => Promise<T>, { ifAvailable = false } = {}): Promise<T | null> {
  const manager = locks();
  if (!manager) return task();
  return manager.request(name, { ifAvailable }, (lock) => (lock ? task() : null));
}

/** Holds `name` until the returned function is called (e.g. while a view is shown). */
export function holdLock(name: string): () => void {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  void locks()?.request(name, () => held).catch(() => {});
  return release;
}

/** Whether some context holds `name` now (false where Web Locks do not exist). */
export async function isLockHeld(name: string): Promise<boolean> {
  const manager = locks();
  if (!manager) return false;
  const { held = [] } = await manager.query();
  return held.some((lock) => lock.name === name);
}

/**
 * One ResolvePartnerToken check of `handle`. On success the group is kept (ResolvedRecord) and the
 * stored session cleared before the lock is released. `wait: false` answers `busy` instead of
 * waiting for another context's check.
 */
export async function checkHandle(client: ProxyClient, handle: string, { wait = true } = {}): Promise<Check> {
  const check = await withLock(
    RESOLVE_LOCK,
    async (): Promise<Check> => {
      const known = await readResolved(handle);
      if (known) return { kind: 'resolved', resolved: known };
      try {
        const resolved = await client.library('ResolvePartnerToken', { PartnerToken: handle });
        if (!isResolved(resolved)) throw new Error('ResolvePartnerToken answered without a GroupId.');
        await settingsStore.put('portrait.resolved', { handle, resolved });
        await clearSession(handle);
        return { kind: 'resolved', resolved };
      } catch (error) {
        return { kind: 'failed', error };
      }
    },
    { ifAvailable: !wait },
  );
  return check ?? { kind: 'busy' };
}
