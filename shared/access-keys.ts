import * as v from 'valibot';
import { tokenLabelField } from './member-identity';
import { strictObjectMessage } from './validation';

/**
 * Member access keys (docs/identity.md): an access key pair of a member's own, so that a script
 * written for the service's SDK signs `/api/v3` calls to the proxy as it would to the service.
 * Shapes of the proxy's routes, shared by the proxy and its clients.
 */

/** The most access keys a member holds at once. */
export const MEMBER_ACCESS_KEYS_MAX = 20;

/**
 * An access key id: the member's id inside it, as in a member token, so that a signed call goes
 * straight to the member's object. Anchored, fixed classes: linear.
 */
const ACCESS_KEY_ID = /^AKAB(m[0-9a-f]{16})K[0-9A-F]{16}$/;

/** The member id an access key id claims, or null when it is not of the proxy's form. */
export const accessKeyMemberId = (accessKeyId: string): string | null => (accessKeyId.length === 38 ? (ACCESS_KEY_ID.exec(accessKeyId)?.[1] ?? null) : null);

/** The prefix of every secret access key the proxy issues: a shape the log sink removes whatever the field. */
export const SECRET_ACCESS_KEY_PREFIX = 'abks_';

/** `POST /proxy/access-keys`: `label` by the label rule (shared/labels.ts), as tokens'. */
export const accessKeyCreateSchema = v.strictObject({ label: tokenLabelField }, strictObjectMessage('is not a field of this call'));

/** The answer of `POST /proxy/access-keys` (201): the secret is shown only here. */
export const createdAccessKeySchema = v.object({
  id: v.string(),
  label: v.string(),
  accessKeyId: v.pipe(v.string(), v.description('What the SDK calls the access key id (AK).')),
  secretAccessKey: v.pipe(v.string(), v.description('What the SDK calls the secret access key (SK): shown only in this answer.')),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
});
export type CreatedAccessKey = v.InferOutput<typeof createdAccessKeySchema>;

/** One of a member's access keys, as listed: never the secret. */
export const accessKeyInfoSchema = v.object({
  id: v.string(),
  label: v.string(),
  accessKeyId: v.string(),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
  lastUsedAt: v.pipe(v.nullable(v.string()), v.description('ISO 8601 UTC, to the minute: updated at most once a minute; null before any use.')),
});
export type AccessKeyInfo = v.InferOutput<typeof accessKeyInfoSchema>;

/** `GET /proxy/access-keys`, `GET /admin/members/:id/access-keys`. */
export const accessKeyListSchema = v.object({ keys: v.array(accessKeyInfoSchema) });
