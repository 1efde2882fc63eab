import * as v from 'valibot';
import { labelField } from './labels';
import { memberEmailField, memberScopeSchema, type MemberScope } from './member-identity';
import { strictObjectMessage } from './validation';

/** Shapes of the proxy's admin API, shared by the proxy and its clients (`npm run members`). */

/** A member as `GET /admin/members` lists it. */
export interface MemberProfile {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  revoked: boolean;
  /** The email Cloudflare Access names the member by (docs/identity.md); left out when none. */
  email?: string;
  /** The models the member may use and when their tokens expire (docs/identity.md). */
  scope: MemberScope;
}

/** A member's name: at most this many characters, by the label rule (shared/labels.ts). */
export const MEMBER_NAME_MAX = 100;
export const memberNameField = labelField(MEMBER_NAME_MAX);

/** `POST /admin/members`. */
export const memberAddSchema = v.strictObject(
  {
    name: memberNameField,
    email: v.optional(memberEmailField),
  },
  strictObjectMessage('is not a field of this call'),
);

/** The answer of `POST /admin/members` (201): the token is shown only here. */
export const addedMemberSchema = v.object({ id: v.string(), name: v.string(), token: v.string(), email: v.optional(v.pipe(v.string(), v.description('As given; left out when none was.'))) });

/** A member as the admin API answers it. */
export const memberProfileSchema = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
  revoked: v.boolean(),
  email: v.optional(v.pipe(v.string(), v.description('The email Cloudflare Access names the member by; left out when the member has none.'))),
  scope: memberScopeSchema,
});

/** `GET /admin/members`. */
export const memberListSchema = v.object({ members: v.array(memberProfileSchema) });

/** `POST /admin/members/{id}/token`: a new token; the old one stops working at once. */
export const memberTokenSchema = v.object({ id: v.string(), token: v.string() });
