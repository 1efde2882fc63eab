import { proxyError } from '../../infra/http/responses';
import { memberAuth } from '../middleware/member-auth';

/** The 401 of every `/proxy` route: no valid member token (missing, malformed, unknown, revoked or rotated away). */
export const proxyUnauthorized = () => proxyError(401, 'unauthorized', 'A valid member token is required: Authorization: Bearer <member token>.');

/** The member gate of `/proxy/*`. */
export const proxyAuth = memberAuth(proxyUnauthorized);
