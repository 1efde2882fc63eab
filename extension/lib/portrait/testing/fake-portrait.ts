import type { AssetListItem } from '@@/shared';
import { PROXY_URL, TOKEN } from '@/lib/testing/fake-proxy';

export { PROXY_URL, TOKEN };

/**
 * A tiny imitation of the Arkbridge proxy for the portrait flow: `POST /proxy/consents`, and
 * CreatePortraitSession (refused without a consent on record, as the proxy does),
 * ResolvePartnerToken (ValidationError while pending, after expiry or once resolved) and
 * ListAssets on `/api/v3`. Time comes from the test's clock. Every call is recorded, in order.
 */

export interface PortraitCall {
  /** `/proxy/consents`, or the `/api/v3` Action. */
  action: string;
  body: any;
  authorization: string | null;
}

export type PortraitFault =
  | { kind: 'network' }
  | { kind: 'status'; status: number; code?: string; message?: string; retryAfter?: string };

interface FakeSession {
  h5: string;
  handle: string;
  expiresAt: number;
  continuous: boolean;
  state: 'pending' | 'completed' | 'resolved';
  name?: string;
  description?: string;
}

export class FakePortraitProxy {
  readonly calls: PortraitCall[] = [];
  readonly consents: { scope: string; rulesVersion: string; acceptedAt: string }[] = [];
  readonly sessions: FakeSession[] = [];
  readonly assets: AssetListItem[] = [];
  /** Session lifetime in seconds (the sandbox's default is 300). */
  lifetime = 300;
  /** Status of the assets a resolution creates. */
  captureStatus: AssetListItem['Status'] = 'Active';
  #faults: { action: string; fault: PortraitFault }[] = [];
  #holds: { action: string; released: Promise<void> }[] = [];
  #ids = 0;

  constructor(private readonly now: () => number) {}

  /** The next call of `action` fails (queued in order). */
  failNext(action: string, fault: PortraitFault, times = 1): this {
    for (let i = 0; i < times; i++) this.#faults.push({ action, fault });
    return this;
  }

  /** The next call of `action` is answered only once the returned function is called (a slow answer). */
  holdNext(action: string): () => void {
    let release!: () => void;
    this.#holds.push({ action, released: new Promise<void>((resolve) => (release = resolve)) });
    return release;
  }

  actions(): string[] {
    return this.calls.map((c) => c.action);
  }

  callsOf(action: string): PortraitCall[] {
    return this.calls.filter((c) => c.action === action);
  }

  /** The newest session (the code on screen). */
  latest(): FakeSession {
    const session = this.sessions.at(-1);
    if (!session) throw new Error('no portrait session was created');
    return session;
  }

  /** The person finishes on the phone (what the sandbox's H5 page submits). */
  complete(h5Link: string, name = 'Ada Lovelace', description = 'Studio portrait'): void {
    const session = this.sessions.find((s) => s.h5 === h5Link);
    if (!session) throw new Error(`no session for ${h5Link}`);
    if (this.now() >= session.expiresAt) throw new Error('the session expired');
    Object.assign(session, { state: 'completed', name, description });
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const action = url.pathname === '/api/v3' ? (url.searchParams.get('Action') ?? '') : url.pathname;
    const authorization = new Headers(init.headers).get('Authorization');
    this.calls.push({ action, body, authorization });
    const held = this.#holds.findIndex((h) => h.action === action);
    if (held >= 0) await this.#holds.splice(held, 1)[0]!.released;
    const index = this.#faults.findIndex((f) => f.action === action);
    const fault = index >= 0 ? this.#faults.splice(index, 1)[0]!.fault : null;
    if (fault?.kind === 'network') throw new TypeError('Failed to fetch');
    if (fault) return failure(fault.status, action, fault.code ?? 'Fault', fault.message ?? `fault ${fault.status}`, fault.retryAfter);
    if (authorization !== `Bearer ${TOKEN}`) return failure(401, action, 'AuthenticationFailed', 'A valid member token is required.');
    return this.#answer(action, body);
  };

  #answer(action: string, body: any): Response {
    const now = this.now();
    switch (action) {
      case '/proxy/consents': {
        if (body?.scope !== 'portrait' || typeof body.rulesVersion !== 'string' || !body.rulesVersion) {
          return json(400, { error: { code: 'invalid_parameter', message: 'scope and rulesVersion are required', type: 'invalid_request_error' } });
        }
        const record = { scope: 'portrait', rulesVersion: body.rulesVersion, acceptedAt: new Date(now).toISOString() };
        this.consents.push(record);
        return json(201, record);
      }
      case 'CreatePortraitSession': {
        if (!this.consents.length) return failure(400, action, 'ValidationError', 'consent: show the real-person authorization rules and record the consent first.');
        const n = ++this.#ids;
        const session: FakeSession = {
          h5: `https://sandbox.test/h5/portrait/h5-${n}`,
          handle: `ph_${n}`,
          expiresAt: now + this.lifetime * 1000,
          continuous: body?.ContinuousCreate === true,
          state: 'pending',
        };
        this.sessions.push(session);
        return ok(action, { H5Link: session.h5, PartnerToken: session.handle, ExpiresIn: this.lifetime, ExpireTime: new Date(session.expiresAt).toISOString() });
      }
      case 'ResolvePartnerToken': {
        const session = this.sessions.find((s) => s.handle === body?.PartnerToken);
        if (!session) return failure(403, action, 'AccessDenied', 'PartnerToken: this handle does not exist or belongs to another member.');
        if (session.state === 'resolved') return failure(400, action, 'ValidationError', 'PartnerToken: this handle was already resolved and is no longer valid.');
        if (now >= session.expiresAt) return failure(400, action, 'ValidationError', 'PartnerToken: this session has expired; create a new portrait session.');
        if (session.state === 'pending') return failure(400, action, 'ValidationError', 'PartnerToken: the person has not completed authorization and capture yet; retry later.');
        session.state = 'resolved';
        const GroupId = `group-lf-${++this.#ids}`;
        for (let i = 1; i <= (session.continuous ? 2 : 1); i++) {
          this.assets.push({
            Id: `asset-lf-${++this.#ids}`,
            GroupId,
            Name: `${session.name} capture ${i}`,
            URL: 'https://sandbox.test/sandbox/media/portrait.png',
            AssetType: 'Image',
            Status: this.captureStatus,
            Error: { Code: '', Message: '' },
          });
        }
        return ok(action, { GroupId, GroupName: session.name, GroupDescription: session.description });
      }
      case 'ListAssets': {
        const filter = body?.Filter ?? {};
        if ((body?.PageSize ?? 20) > 100) return failure(400, action, 'ValidationError', 'PageSize: must be at most 100');
        const items = this.assets.filter((a) => !filter.GroupIds || filter.GroupIds.includes(a.GroupId));
        return ok(action, { Items: items, TotalCount: items.length, PageNumber: body?.PageNumber ?? 1, PageSize: body?.PageSize ?? 20 });
      }
      default:
        return failure(400, action, 'ValidationError', `Action: "${action}" is not supported by the fake portrait proxy.`);
    }
  }
}

/**
 * A clock the test moves: `sleep` waits until the test advances time past its end. `advance` wakes
 * every sleeper that is due.
 */
export class ManualClock {
  time = Date.UTC(2026, 10, 22, 9, 0, 0);
  readonly sleepers: { until: number; wake: () => void }[] = [];

  now = (): number => this.time;

  sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.sleepers.push({ until: this.time + ms, wake });
    });

  advance(ms: number): void {
    this.time += ms;
    for (const sleeper of [...this.sleepers]) {
      if (sleeper.until > this.time) continue;
      this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
      sleeper.wake();
    }
  }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const metadata = (action: string) => ({ RequestId: 'req', Action: action, Version: '2024-01-01', Service: 'ark', Region: 'cn-beijing' });

const ok = (action: string, result: unknown) => json(200, { ResponseMetadata: metadata(action), Result: result });

function failure(status: number, action: string, code: string, message: string, retryAfter?: string): Response {
  if (action.startsWith('/')) return json(status, { error: { code, message } }, retryAfter ? { 'Retry-After': retryAfter } : {});
  return json(status, { ResponseMetadata: { ...metadata(action), Error: { Code: code, Message: message } } }, retryAfter ? { 'Retry-After': retryAfter } : {});
}
