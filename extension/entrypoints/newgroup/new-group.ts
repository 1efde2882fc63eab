import { ASSET_TYPES, type AssetType } from '../../../shared';
import { ProxyClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import { newLocalId } from '../../lib/db';
import { checkGroup } from '../../lib/library/groups';
import { t } from '@/lib/i18n';

/** The right-clicked item the new group receives (query parameters url, name, type). */
export interface PendingItem {
  url: string;
  name: string;
  type: AssetType;
}

/** The item named by the page's query, or null when it names none (or not a valid one). */
export function parseItem(params: URLSearchParams): PendingItem | null {
  const url = params.get('url');
  const name = params.get('name');
  const type = params.get('type');
  if (!url || !name || !type || !(ASSET_TYPES as readonly string[]).includes(type)) return null;
  return { url, name, type: type as AssetType };
}

export type GroupField = 'name' | 'description';
/** The field as messages name it, in the current language. */
export const fieldLabel = (field: GroupField): string => t(field === 'name' ? 'newgroup.name' : 'newgroup.descriptionField');
const SCHEMA_FIELDS: Record<string, GroupField> = { Name: 'name', Description: 'description' };

/** A problem of the form, with the message naming the field as the member sees it. */
export interface GroupFormProblem {
  field: GroupField | null;
  message: string;
}

/** Rewrites `Name: must be …` (schema or proxy wording) as `Group name: must be …`. */
export function relabel(field: string, message: string): GroupFormProblem {
  const own = SCHEMA_FIELDS[field];
  if (!own) return { field: null, message };
  const reason = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return { field: own, message: `${fieldLabel(own)}: ${reason}` };
}

/** Checks the form as the popup does (the shared CreateAssetGroup schema: the proxy's own rules and limits). */
export function checkGroupForm(name: string, description: string): { ok: true; body: { Name: string; Description: string } } | { ok: false; problem: GroupFormProblem } {
  const checked = checkGroup('CreateAssetGroup', name, description);
  return checked.ok ? { ok: true, body: checked.value } : { ok: false, problem: { field: checked.problem.field ?? null, message: checked.problem.message } };
}

/** Where the page keeps its Idempotency-Key: one per page load, surviving a reload. */
export interface KeyStore {
  current(): string;
  /** A fresh key (after the proxy said this one was used with another body). */
  rotate(): string;
}

const KEY_NAME = 'arkbridge:newgroup:idempotency-key';

export function sessionKeyStore(storage: Storage): KeyStore {
  const fresh = () => {
    const key = newLocalId();
    try {
      storage.setItem(KEY_NAME, key);
    } catch {
      // Storage full or blocked: the key still holds for this page load.
    }
    return key;
  };
  let key = storage.getItem(KEY_NAME) ?? fresh();
  return {
    current: () => key,
    rotate: () => (key = fresh()),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CreateAssetGroup with the page's Idempotency-Key; a create still running under the same key
 * (409 in progress) is awaited a few times with the same key, never re-sent with a new one.
 */
export async function createGroup(
  client: ProxyClient,
  body: { Name: string; Description: string },
  idempotencyKey: string,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { Id } = await client.library('CreateAssetGroup', body, { idempotencyKey });
      return Id;
    } catch (error) {
      if (error instanceof ApiError && error.failure.kind === 'in_progress' && attempt < 5) {
        await wait(1000 * (attempt + 1));
        continue;
      }
      throw error;
    }
  }
}
