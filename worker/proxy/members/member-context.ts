import type { ProxySettings } from '../proxy-settings';

/** What request handling inside a member's object needs. */
export interface MemberContext {
  sql: SqlStorage;
  env: ProxySettings;
  memberId: string;
  /** Keeps work alive after the response (an upstream create that outlived the client's wait). */
  waitUntil(promise: Promise<unknown>): void;
}
