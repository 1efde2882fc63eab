import type { ModelSpec, ResolvedPortrait, UsageView } from '@@/shared';

/**
 * The `settings` store's keys and the types of their values. Declared here rather than in the
 * feature modules that read and write them, and importing nothing from the extension, so that the
 * database schema and the settings store never import a feature module (no import cycles): feature
 * modules import the settings store, never the other way round.
 */

/** How the extension reaches the team's proxy. */
export interface Connection {
  /** Origin of the proxy, e.g. `https://arkbridge.example.workers.dev` (no trailing slash). */
  proxyUrl: string;
  /** The member token. Kept in the extension's IndexedDB: page and content-script contexts cannot read it. */
  token: string;
  /** The member's display name, from `/proxy/me` at connect time. */
  memberName?: string;
  /** The proxy accepts plain http:// media (its ALLOW_HTTP_MEDIA; local development). */
  allowHttpMedia?: boolean;
  /** Set when the proxy refused the token: the member must reconnect. */
  needsReconnect?: boolean;
}

/** The popup's tabs. */
export type PopupTab = 'library' | 'generate' | 'tasks' | 'portrait' | 'team';

/** The models the member can generate with, as last listed (model-list). */
export interface ModelsInfo {
  models: ModelSpec[];
  /** The proxy accepts plain http:// media. */
  allowHttp: boolean;
  fetchedAt: number;
}

/** The member's budget as last read (budget/usage-refresh), and whose it is. */
export interface UsageRecord {
  /** null: the proxy keeps no budgets (an older proxy): nothing about budgets is shown. */
  usage: UsageView | null;
  /** The connection it was read with (another member's or proxy's is never shown). */
  proxyUrl: string;
  memberName?: string;
  fetchedAt: number;
}

/** The last consent the proxy recorded for this member (shown under the rules). */
export interface ConsentRecord {
  rulesVersion: string;
  acceptedAt: string;
}

/**
 * The QR code on screen, kept so that the flow survives the popup closing or a tab switch (the
 * member copies the link elsewhere, looks at the Library...). `handle` is the proxy's opaque
 * PartnerToken handle: it resolves only with this member's token, never the service's token.
 */
export interface StoredSession {
  h5Link: string;
  handle: string;
  expiresAt: number;
  /** Fresh codes already made automatically in this flow. */
  renewals: number;
  continuous: boolean;
}

/** The last resolved handle and its group (settings `portrait.resolved`). */
export interface ResolvedRecord {
  handle: string;
  resolved: ResolvedPortrait;
}

/** Keys of pending creates that have no record, by operation and body (settings `pendingCreateKeys`). */
export type PendingKeys = Record<string, { key: string; madeAt: number }>;

/** Everything the `settings` store holds: each key once, with the type of its value. */
export interface Settings {
  /** How the extension reaches the proxy (stored-connection). */
  connection: Connection;
  /** The context menu's default group (group-store). */
  defaultGroupId: string;
  /** The group the member last saved to, from any save (last-used-group): the keyboard save's target. */
  lastGroupId: string;
  /** When a library refresh last started (library-refresh). */
  libraryRefreshedAt: number;
  /** The background's current polling delay (background-sync). */
  syncDelayMs: number;
  /** The popup tab to open next, once (next-tab). */
  'popup.nextTab': PopupTab;
  /** The last list of models (model-list). */
  'generate.models': ModelsInfo;
  /** The member's budget as last read (usage-refresh). */
  'budget.usage': UsageRecord;
  /** The last consent the proxy recorded (portrait-store). */
  'portrait.consent': ConsentRecord;
  /** The QR code on screen (portrait-store). */
  'portrait.session': StoredSession;
  /** The last resolved code and its group (portrait-resolve). */
  'portrait.resolved': ResolvedRecord;
  /** Idempotency-Keys of pending creates that have no record (idempotency-keys). */
  pendingCreateKeys: PendingKeys;
}

export type SettingKey = keyof Settings;
