import * as v from 'valibot';
import { labelField } from './labels';
import { strictObjectMessage } from './validation';

/**
 * Member identity (docs/identity.md): a member's scope (the models they may use, when their tokens
 * expire), their tokens (one per browser), and member sign-in with Cloudflare Access. Shapes of the
 * proxy's routes, shared by the proxy and its clients.
 */

/** The most models a scope names. */
export const SCOPE_MODELS_MAX = 100;
/** The latest expiry a scope takes: the end of 9999, in unix seconds. */
export const EXPIRES_AT_MAX = 253_402_300_799;
/** The most tokens a member holds at once (browsers, scripts). */
export const MEMBER_TOKENS_MAX = 20;
/** A token's label: what a member reads in their list of browsers. */
export const TOKEN_LABEL_MAX = 64;

const modelId = v.pipe(
  v.string('must be a model id'),
  v.nonEmpty('must not be empty'),
  v.maxLength(128, 'must be at most 128 characters'),
  v.regex(/^[\w.:-]+$/, 'must be a model id (letters, digits, `.`, `_`, `:`, `-`)'),
);

const models = v.nullable(
  v.pipe(
    v.array(modelId, 'must be a list of model ids or null'),
    v.maxLength(SCOPE_MODELS_MAX, `must name at most ${SCOPE_MODELS_MAX} models`),
    v.check((list) => new Set(list).size === list.length, 'must not name a model twice'),
  ),
);

const expiresAt = v.nullable(
  v.pipe(
    v.number('must be unix seconds (an integer) or null'),
    v.integer('must be unix seconds (an integer) or null'),
    v.minValue(0, 'must not be negative'),
    v.maxValue(EXPIRES_AT_MAX, `must be at most ${EXPIRES_AT_MAX}`),
  ),
);

/** `PUT /admin/members/:id/scope`: `models` null allows every model; `expiresAt` null never expires. A field left out keeps its value. */
export const memberScopeChangeSchema = v.strictObject(
  { models: v.optional(models), expiresAt: v.optional(expiresAt) },
  strictObjectMessage('is not a field of a scope'),
);
export type MemberScopeChange = v.InferOutput<typeof memberScopeChangeSchema>;

/** A member's scope, as stored and answered. */
export const memberScopeSchema = v.object({
  models: v.pipe(v.nullable(v.array(v.string())), v.description('The models the member may create with and quote; null: every model.')),
  expiresAt: v.pipe(v.nullable(v.number()), v.description('Unix seconds after which every token of the member is refused (401 `token_expired`); null: never.')),
});
export type MemberScope = v.InferOutput<typeof memberScopeSchema>;

export const OPEN_SCOPE: MemberScope = { models: null, expiresAt: null };

/**
 * A member's email, as `POST /admin/members` checks it and as auto-enrolment by Cloudflare Access
 * checks the email of the assertion (docs/identity.md): one check for both.
 */
export const memberEmailSchema = v.pipe(
  v.string('must be an email address'),
  v.trim(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an email address'),
);

/** A member's email, the one Cloudflare Access names them by (`null`: none). */
export const memberEmailField = v.nullable(memberEmailSchema);

/** `PUT /admin/members/:id/email`. */
export const memberEmailChangeSchema = v.strictObject({ email: memberEmailField }, strictObjectMessage('is not a field of this call'));

/** A token's label, by the label rule (shared/labels.ts): `POST /proxy/tokens` and member sign-in's `label`. */
export const tokenLabelField = labelField(TOKEN_LABEL_MAX);
const label = tokenLabelField;

/** `POST /proxy/tokens`: a new token of the calling member, for one browser. */
export const tokenCreateSchema = v.strictObject({ label }, strictObjectMessage('is not a field of this call'));

/** The answer of `POST /proxy/tokens` (201): the token is shown only here. */
export const createdTokenSchema = v.object({ id: v.string(), label: v.string(), token: v.string() });

/** One of a member's tokens, as listed: never the token, never its hash. */
export const tokenInfoSchema = v.object({
  id: v.string(),
  label: v.string(),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
  lastUsedAt: v.pipe(v.nullable(v.string()), v.description('ISO 8601 UTC, to the minute: updated at most once a minute; null before any use.')),
  current: v.pipe(v.boolean(), v.description('The token this request was made with (`GET /proxy/tokens` only; false in the admin\'s list).')),
});
export type TokenInfo = v.InferOutput<typeof tokenInfoSchema>;

/** `GET /proxy/tokens`, `GET /admin/members/:id/tokens`. */
export const tokenListSchema = v.object({ tokens: v.array(tokenInfoSchema) });

/** `GET /connect/methods`: how a member may connect a browser to this proxy (no token). */
export const connectMethodsSchema = v.object({
  token: v.pipe(v.boolean(), v.description('Pasting a token or a connect link: always true.')),
  access: v.pipe(v.boolean(), v.description('Member sign-in with Cloudflare Access at `GET /connect/access` is set up (`ACCESS_TEAM_DOMAIN` and `MEMBER_ACCESS_AUD`).')),
});
export type ConnectMethods = v.InferOutput<typeof connectMethodsSchema>;

/** The redirect URLs member sign-in hands a token to: the extension identity flow's, of Chrome and Firefox. */
const EXTENSION_REDIRECT = /^https:\/\/(?:[a-p]{32}\.chromiumapp\.org|[0-9a-f]{40}\.extensions\.allizom\.org)(?:\/[^#\s]*)?$/;

/** Whether `url` is a redirect URL of the extension identity flow (`https://<id>.chromiumapp.org/...`, `https://<id>.extensions.allizom.org/...`). */
export function isExtensionRedirect(url: string): boolean {
  if (url.length > 2048 || !EXTENSION_REDIRECT.test(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !parsed.username && !parsed.password && !parsed.port && parsed.href.startsWith(`https://${parsed.hostname}/`);
  } catch {
    return false;
  }
}
