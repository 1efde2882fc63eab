import { ASSET_TYPES, type AssetType } from '@@/shared';
import { CONNECT_WORDING, type Wording } from '@/lib/proxy/failure-message';
import '@/lib/i18n/options.en';

/** The right-clicked item the new group receives (query parameters url, name, type). */
export interface PendingItem {
  url: string;
  name: string;
  type: AssetType;
  /** The page it was right-clicked on (query parameters pageUrl, pageTitle): its provenance. */
  page?: { url?: string; title?: string };
}

/** The item named by the page's query, or null when it names none (or not a valid one). */
export function parseItem(params: URLSearchParams): PendingItem | null {
  const url = params.get('url');
  const name = params.get('name');
  const type = params.get('type');
  if (!url || !name || !type || !(ASSET_TYPES as readonly string[]).includes(type)) return null;
  const page = { url: params.get('pageUrl') ?? undefined, title: params.get('pageTitle') ?? undefined };
  return { url, name, type: type as AssetType, ...(page.url || page.title ? { page } : {}) };
}

/**
 * The page's words for a failed create: as the options page's (it names the proxy's address), and
 * a passing failure says that trying again is safe (the create's Idempotency-Key is kept).
 */
export const NEW_GROUP_WORDING: Wording = {
  ...CONNECT_WORDING,
  unauthorized: 'newgroup.error.unauthorized',
  network: 'newgroup.error.network',
  retry: 'newgroup.error.retrySafe',
};
