/** Shapes of the proxy's admin API, shared by the proxy and its clients (`npm run members`). */

/** A member as `GET /admin/members` lists it. */
export interface MemberProfile {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  revoked: boolean;
}
