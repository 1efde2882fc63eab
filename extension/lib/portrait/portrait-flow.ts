import type { PortraitSession, ResolvedPortrait } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import { tellBackground } from '@/lib/messaging/extension-messages';
import { checkHandle, classifyResolveError, holdLock, VIEW_LOCK } from '@/lib/portrait/portrait-resolve';
import { RULES_VERSION } from '@/lib/portrait/portrait-rules';
import * as store from '@/lib/portrait/portrait-store';
import { type PortraitEvent, type PortraitState, transition } from '@/lib/portrait/portrait-transitions';
import type { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected, POPUP_WORDING, type Problem, problemOf as describeProblem, type Wording } from '@/lib/proxy/failure-message';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import type { ConsentRecord } from '@/lib/storage/records/setting-values';
import { announceChange } from '@/lib/storage/store-changes';
import '@/lib/i18n/portrait.en';

/**
 * The real-person flow of the popup, run: one effect per state of the transition table
 * (portrait-transitions.ts), with an injected clock, so tests drive polling and expiry without
 * real time.
 */

/** Time between two ResolvePartnerToken checks while the person is busy on the phone. */
export const POLL_MS = 2500;
/**
 * The last check before expiry happens this long before it: the service refuses an expired session
 * even when the person finished just in time, so the check must not come after the expiry.
 */
export const FINAL_CHECK_MS = 1000;

/** A refusal of the portrait calls names the code, not an item of the library. */
const PORTRAIT_WORDING: Wording = { ...POPUP_WORDING, accessDenied: 'portrait.error.accessDenied' };

/** A failed call as the member reads it; a refused token is recorded so the popup asks to reconnect. */
export const problemOf = (error: unknown): Promise<Problem> => describeProblem(error, { wording: PORTRAIT_WORDING });

export interface FlowDeps {
  /** A client for the stored connection; null when not connected or the token was refused. */
  client: () => Promise<ProxyClient | null>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  pollMs: number;
}

export const defaultDeps: FlowDeps = {
  client: async () => (await connectedClient())?.client ?? null,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  pollMs: POLL_MS,
};

export interface FlowSnapshot {
  state: PortraitState;
  /** The last consent recorded for this member, for display. */
  consent: ConsentRecord | null;
}

const isPortraitSession = (value: unknown): value is PortraitSession =>
  !!value && typeof (value as PortraitSession).H5Link === 'string' && typeof (value as PortraitSession).PartnerToken === 'string' && !!(value as PortraitSession).PartnerToken;


/** Runs the flow: one effect per state; results of an effect whose state was left are dropped. */
export class PortraitFlow {
  readonly #deps: FlowDeps;
  #snapshot: FlowSnapshot = { state: { kind: 'rules' }, consent: null };
  readonly #listeners = new Set<(snapshot: FlowSnapshot) => void>();
  /** Bumped on every state change: an effect acts only while its epoch is current. */
  #epoch = 0;
  #stopped = false;
  /** The consent gate: the proxy recorded the consent for this flow (reset when it ends). */
  #consented = false;
  /** Releases VIEW_LOCK: while it is held, the background leaves checking the code to this view. */
  #releaseView: (() => void) | null = null;

  constructor(deps: Partial<FlowDeps> = {}) {
    this.#deps = { ...defaultDeps, ...deps };
  }

  get snapshot(): FlowSnapshot {
    return this.#snapshot;
  }

  get state(): PortraitState {
    return this.#snapshot.state;
  }

  subscribe(listener: (snapshot: FlowSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the last consent and resumes a code an earlier popup left on screen, if still valid. */
  async start(): Promise<void> {
    this.#releaseView ??= holdLock(VIEW_LOCK);
    const [consent, session] = await Promise.all([store.readConsent().catch(() => null), store.readSession().catch(() => null)]);
    if (this.#stopped) return;
    if (consent) this.#publish({ ...this.#snapshot, consent });
    if (!session) return;
    if (session.expiresAt > this.#deps.now() && this.state.kind === 'rules') {
      // Made after a recorded consent, for the person now scanning it.
      this.#consented = true;
      this.dispatch({ type: 'resume', session });
    } else if (this.state.kind === 'rules') {
      await store.clearSession().catch(() => {});
    }
  }

  /** The view is gone: nothing more is shown. A code on screen stays stored for the next popup. */
  stop(): void {
    this.#stopped = true;
    this.#epoch++;
    this.#releaseView?.();
    this.#releaseView = null;
  }

  agree = (continuous: boolean) => this.dispatch({ type: 'agree', continuous });
  cancel = () => this.dispatch({ type: 'cancel' });
  renew = () => this.dispatch({ type: 'renew' });
  retry = () => this.dispatch({ type: 'retry' });
  done = () => this.dispatch({ type: 'done' });

  dispatch(event: PortraitEvent): void {
    if (this.#stopped) return;
    const previous = this.state;
    const next = transition(previous, event);
    if (next === previous) return;
    if (event.type === 'consented') this.#consented = true;
    if (next.kind === 'rules') this.#consented = false;
    if (next.kind === 'creating' && !this.#consented) return; // unreachable by `transition`; the gate holds regardless
    const epoch = ++this.#epoch;
    if (next.kind === 'showing' && (previous.kind !== 'showing' || previous.session !== next.session)) {
      // Stored, and the background told: it takes over the checking if the popup closes.
      void store.saveSession(next.session).then(() => tellBackground({ type: 'arkbridge:sync' })).catch(() => {});
    }
    if (previous.kind === 'showing' && next.kind !== 'showing') void store.clearSession().catch(() => {});
    this.#publish({ ...this.#snapshot, state: next });
    void this.#run(next, epoch);
  }

  #publish(snapshot: FlowSnapshot): void {
    this.#snapshot = snapshot;
    for (const listener of this.#listeners) listener(snapshot);
  }

  #current(epoch: number): boolean {
    return !this.#stopped && epoch === this.#epoch;
  }

  /** Dispatches `event` only if the state that produced it is still current. */
  #then(epoch: number, event: PortraitEvent): void {
    if (this.#current(epoch)) this.dispatch(event);
  }

  async #run(state: PortraitState, epoch: number): Promise<void> {
    try {
      if (state.kind === 'consenting') await this.#consent(epoch);
      else if (state.kind === 'creating') await this.#create(state, epoch);
      else if (state.kind === 'showing') await this.#poll(state, epoch);
      else if (state.kind === 'storing') await this.#store(state, epoch);
    } catch (error) {
      // A bug rather than a failed call: say so instead of hanging in a busy state.
      const problem = await problemOf(error);
      if (!this.#current(epoch)) return;
      this.#epoch++;
      this.#consented = false;
      this.#publish({ ...this.#snapshot, state: { kind: 'rules', problem } });
    }
  }

  async #consent(epoch: number): Promise<void> {
    const client = await this.#deps.client();
    if (!client) return this.#then(epoch, { type: 'consentFailed', problem: notConnected() });
    let recorded: Awaited<ReturnType<ProxyClient['recordConsent']>> | null;
    try {
      recorded = await client.recordConsent(RULES_VERSION);
    } catch (error) {
      return this.#then(epoch, { type: 'consentFailed', problem: await problemOf(error) });
    }
    const consent: ConsentRecord = {
      rulesVersion: recorded?.rulesVersion || RULES_VERSION,
      acceptedAt: recorded?.acceptedAt || new Date(this.#deps.now()).toISOString(),
    };
    await store.saveConsent(consent).catch(() => {});
    if (!this.#current(epoch)) return;
    this.#publish({ ...this.#snapshot, consent });
    this.dispatch({ type: 'consented' });
  }

  async #create(state: Extract<PortraitState, { kind: 'creating' }>, epoch: number): Promise<void> {
    const client = await this.#deps.client();
    if (!client) return this.#then(epoch, { type: 'createFailed', problem: notConnected() });
    try {
      const session = await client.library('CreatePortraitSession', { ContinuousCreate: state.continuous });
      if (!isPortraitSession(session)) throw new Error('CreatePortraitSession answered without H5Link or PartnerToken.');
      this.#then(epoch, { type: 'created', session, now: this.#deps.now() });
    } catch (error) {
      this.#then(epoch, { type: 'createFailed', problem: await problemOf(error) });
    }
  }

  async #poll(state: Extract<PortraitState, { kind: 'showing' }>, epoch: number): Promise<void> {
    const { session } = state;
    const { now, sleep } = this.#deps;
    // One check lands FINAL_CHECK_MS before the expiry; once past it, the next wake-up is the expiry.
    const remaining = session.expiresAt - now();
    const wait = state.waitMs ?? this.#deps.pollMs;
    await sleep(remaining > FINAL_CHECK_MS ? Math.min(wait, remaining - FINAL_CHECK_MS) : Math.max(0, remaining));
    if (!this.#current(epoch)) return;
    const client = await this.#deps.client();
    if (!client) return this.#then(epoch, { type: 'pollFailed', problem: notConnected() });
    const check = await checkHandle(client, session.handle);
    if (check.kind !== 'resolved') {
      const error = check.kind === 'failed' ? check.error : null;
      if (!this.#current(epoch)) return;
      const outcome = classifyResolveError(error);
      const expired = now() >= session.expiresAt;
      if (outcome === 'expired' || ((outcome === 'pending' || outcome === 'transient') && expired)) return this.dispatch({ type: 'expired' });
      if (outcome === 'pending') return this.dispatch({ type: 'pending' });
      const problem = outcome === 'used' ? { message: t('portrait.error.used') } : await problemOf(error);
      if (outcome === 'transient') {
        const failure = (error as ApiError).failure;
        return this.#then(epoch, failure.kind === 'rate_limited' ? { type: 'unsteady', problem, waitMs: failure.retryAfterMs } : { type: 'unsteady', problem });
      }
      return this.#then(epoch, { type: 'pollFailed', problem });
    }
    const { resolved } = check;
    // The handle is spent now: whatever happened to the view meanwhile, the group must not be lost.
    if (this.#current(epoch)) return this.dispatch({ type: 'resolved', resolved });
    await this.#persist(resolved).catch(() => {});
  }

  async #store(state: Extract<PortraitState, { kind: 'storing' }>, epoch: number): Promise<void> {
    try {
      const { group, assets } = await this.#persist(state.resolved);
      this.#then(epoch, { type: 'stored', group, assets });
    } catch (error) {
      const { message } = await problemOf(error);
      this.#then(epoch, { type: 'storeFailed', problem: { message: t('portrait.error.storeFailed', { name: state.resolved.GroupName, message }) } });
    }
  }

  /** The group first (so it is never lost), then its assets; announces both to open views. */
  async #persist(resolved: ResolvedPortrait): Promise<{ group: GroupRecord; assets: AssetRecord[] }> {
    const group = await store.storeGroup(resolved, this.#deps.now());
    try {
      const client = await this.#deps.client();
      if (!client) throw new Error(notConnected().message);
      const items = await store.listGroupAssets(client, resolved.GroupId);
      const assets = await store.storeAssets(resolved.GroupId, items, this.#deps.now());
      announceChange('groups', 'assets');
      return { group, assets };
    } catch (error) {
      announceChange('groups');
      throw error;
    }
  }
}
