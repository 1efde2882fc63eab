import { browser } from 'wxt/browser';
import { ASSET_TYPES, type AssetType } from '@@/shared';

/**
 * Messages the extension's pages send to the background service worker.
 * - `arkbridge:connected`: a connection was stored (options page): rebuild menus, resume the queue.
 * - `arkbridge:disconnected`: the connection was removed (options page): rebuild menus.
 * - `arkbridge:groups-changed`: the `groups` store or the default group changed: rebuild menus.
 * - `arkbridge:sync`: sync soon (queue and polling).
 * - `arkbridge:add`: add an item to a group (new-group page), as from the context menu.
 *   The asset type is `item.type`; the message's own `type` names the message.
 */
export type ExtensionMessage =
  | { type: 'arkbridge:connected' }
  | { type: 'arkbridge:disconnected' }
  | { type: 'arkbridge:groups-changed' }
  | { type: 'arkbridge:sync' }
  | { type: 'arkbridge:add'; item: AddItemRequest };

/** The item of `arkbridge:add` (the same shape as capture's AddRequest). */
export interface AddItemRequest {
  groupId: string;
  url: string;
  name: string;
  type: AssetType;
}

/**
 * What the background may answer to `arkbridge:add`; anything else (or nothing) means accepted.
 * `localId`: the record made, whose status the caller may follow.
 */
export type AddItemReply = { ok: true; localId?: string } | { ok: false; message: string };

const TYPES = new Set<string>(['arkbridge:connected', 'arkbridge:disconnected', 'arkbridge:groups-changed', 'arkbridge:sync']);

/** Whether a runtime message is one of ours, well-formed (the background's guard). */
export function isExtensionMessage(value: unknown): value is ExtensionMessage {
  if (!value || typeof value !== 'object') return false;
  const message = value as { type?: unknown; item?: Partial<Record<keyof AddItemRequest, unknown>> };
  if (typeof message.type !== 'string') return false;
  if (TYPES.has(message.type)) return true;
  if (message.type !== 'arkbridge:add' || !message.item || typeof message.item !== 'object') return false;
  const { groupId, url, name, type } = message.item;
  return (
    typeof groupId === 'string' &&
    typeof url === 'string' &&
    typeof name === 'string' &&
    typeof type === 'string' &&
    (ASSET_TYPES as readonly string[]).includes(type)
  );
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
