import { browser } from 'wxt/browser';
import { ASSET_TYPES, type AssetType, LIMITS, MEDIA_URL_MAX } from '@@/shared';
import { DATA_URL_MAX, SAVE_CHARS_MAX, SAVE_ITEMS_MAX } from '@/lib/messaging/page-media-bounds';

/**
 * Messages the extension's pages send to the background service worker.
 * - `arkbridge:connected`: a connection was stored (options page): rebuild menus, resume the queue.
 * - `arkbridge:disconnected`: the connection was removed (options page): rebuild menus.
 * - `arkbridge:groups-changed`: the `groups` store or the default group changed: rebuild menus.
 * - `arkbridge:sync`: sync soon (queue and polling).
 * - `arkbridge:add`: add an item to a group (new-group page), as from the context menu.
 *   The asset type is `item.type`; the message's own `type` names the message.
 * - `arkbridge:save-page-media`: save media of a tab to a group (the side panel), each item as the
 *   context menu would; answered with one result per item, in order.
 */
export type ExtensionMessage =
  | { type: 'arkbridge:connected' }
  | { type: 'arkbridge:disconnected' }
  | { type: 'arkbridge:groups-changed' }
  | { type: 'arkbridge:sync' }
  | { type: 'arkbridge:add'; item: AddItemRequest }
  | SavePageMediaMessage;

/** The item of `arkbridge:add` (the same shape as capture's AddRequest). */
export interface AddItemRequest {
  groupId: string;
  url: string;
  name: string;
  type: AssetType;
  /** The page it was captured on (its provenance). */
  page?: { url?: string; title?: string };
}

/**
 * What the background may answer to `arkbridge:add`; anything else (or nothing) means accepted.
 * `localId`: the record made, whose status the caller may follow; `duplicateOf`: the record already
 * in the group that the item would have repeated.
 */
export type AddItemReply = { ok: true; localId?: string } | { ok: false; message: string; duplicateOf?: string };

/** One item of `arkbridge:save-page-media`: an address found in the tab, in frame `frameId` (default the top one). */
export interface SavePageMediaItem {
  url: string;
  type: AssetType;
  /** The name the panel chose (chooseName with the element's alt); else the background chooses one. */
  name?: string;
  frameId?: number;
}

export interface SavePageMediaMessage {
  type: 'arkbridge:save-page-media';
  groupId: string;
  tabId: number;
  /** 1 to SAVE_ITEMS_MAX items, their addresses together at most SAVE_CHARS_MAX characters. */
  items: SavePageMediaItem[];
}

/** Per item: the record made (its status is followed in IndexedDB), or why not (`duplicate`: the record already there). */
export type SavePageMediaResult = { ok: true; localId: string } | { ok: false; message: string; duplicate?: boolean; localId?: string };
export interface SavePageMediaReply {
  results: SavePageMediaResult[];
}

const GROUP_ID_MAX = 256;
const isFrameId = (value: unknown) => value === undefined || (Number.isSafeInteger(value) && (value as number) >= 0);
const ITEM_KEYS = new Set(['url', 'type', 'name', 'frameId']);
const MESSAGE_KEYS = new Set(['type', 'groupId', 'tabId', 'items']);

/** Whether `arkbridge:save-page-media` is well-formed and within its bounds (no other fields). */
function isSavePageMedia(message: Record<string, unknown>): boolean {
  const { groupId, tabId, items } = message;
  if (!Object.keys(message).every((key) => MESSAGE_KEYS.has(key))) return false;
  if (typeof groupId !== 'string' || !groupId || groupId.length > GROUP_ID_MAX) return false;
  if (!Number.isSafeInteger(tabId) || (tabId as number) < 0) return false;
  if (!Array.isArray(items) || items.length < 1 || items.length > SAVE_ITEMS_MAX) return false;
  let chars = 0;
  return items.every((item: unknown) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return false;
    const { url, type, name, frameId } = item as Record<string, unknown>;
    if (!Object.keys(item).every((key) => ITEM_KEYS.has(key))) return false;
    if (typeof url !== 'string' || !url) return false;
    const max = url.slice(0, 5).toLowerCase() === 'data:' ? DATA_URL_MAX : MEDIA_URL_MAX;
    chars += url.length;
    return (
      url.length <= max &&
      chars <= SAVE_CHARS_MAX &&
      typeof type === 'string' &&
      (ASSET_TYPES as readonly string[]).includes(type) &&
      (name === undefined || (typeof name === 'string' && name.length > 0 && name.length <= LIMITS.assetNameMax)) &&
      isFrameId(frameId)
    );
  });
}

const TYPES = new Set<string>(['arkbridge:connected', 'arkbridge:disconnected', 'arkbridge:groups-changed', 'arkbridge:sync']);

/** Whether a runtime message is one of ours, well-formed (the background's guard). */
export function isExtensionMessage(value: unknown): value is ExtensionMessage {
  if (!value || typeof value !== 'object') return false;
  const message = value as { type?: unknown; item?: Partial<Record<keyof AddItemRequest, unknown>> };
  if (typeof message.type !== 'string') return false;
  if (TYPES.has(message.type)) return true;
  if (message.type === 'arkbridge:save-page-media') return isSavePageMedia(message as Record<string, unknown>);
  if (message.type !== 'arkbridge:add' || !message.item || typeof message.item !== 'object') return false;
  const { groupId, url, name, type, page } = message.item;
  return (
    isOptionalPage(page) &&
    typeof groupId === 'string' &&
    typeof url === 'string' &&
    typeof name === 'string' &&
    typeof type === 'string' &&
    (ASSET_TYPES as readonly string[]).includes(type)
  );
}

/** An absent page, or one whose address and title, where given, are strings. */
function isOptionalPage(page: unknown): boolean {
  if (page === undefined) return true;
  if (!page || typeof page !== 'object') return false;
  const { url, title } = page as { url?: unknown; title?: unknown };
  return (url === undefined || typeof url === 'string') && (title === undefined || typeof title === 'string');
}

/** Sends a message to the background and answers its reply. Throws when nobody receives it. */
export function sendToBackground<R = unknown>(message: ExtensionMessage): Promise<R> {
  return browser.runtime.sendMessage(message) as Promise<R>;
}

/** Tells the background about a change; nobody listening (e.g. during an update) is not an error. */
export async function tellBackground(message: ExtensionMessage): Promise<void> {
  try {
    await browser.runtime.sendMessage(message);
  } catch {
    // No receiver: the background rebuilds its state from IndexedDB when it next starts.
  }
}
