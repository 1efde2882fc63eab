import * as v from 'valibot';
import { strictObjectMessage } from './validation';

/** Shapes of the proxy's admin API, shared by the proxy and its clients (`npm run members`). */

/** A member as `GET /admin/members` lists it. */
export interface MemberProfile {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  revoked: boolean;
}

/** `POST /admin/members`. */
export const memberAddSchema = v.strictObject(
  { name: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(100, 'must be at most 100 characters')) },
  strictObjectMessage('is not a field of this call'),
);

/** The answer of `POST /admin/members` (201): the token is shown only here. */
export const addedMemberSchema = v.object({ id: v.string(), name: v.string(), token: v.string() });

/** `GET /admin/members`. */
export const memberListSchema = v.object({
  members: v.array(v.object({ id: v.string(), name: v.string(), createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC.')), revoked: v.boolean() })),
});

/** `POST /admin/members/{id}/token`: a new token; the old one stops working at once. */
export const memberTokenSchema = v.object({ id: v.string(), token: v.string() });
