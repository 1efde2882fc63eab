import { proxyError, TOKEN_EXPIRED_MESSAGE } from '../../infra/http/responses';
import { memberAuth } from '../middleware/member-auth';

/** The 401 of every `/proxy` route: no valid member token (missing, malformed, unknown, revoked or rotated away). */
export const proxyUnauthorized = () => proxyError(401, 'unauthorized', 'A valid member token is required: Authorization: Bearer <member token>.');

/** The 401 of every `/proxy` route for a member whose scope has expired. */
export const proxyExpired = () => proxyError(401, 'token_expired', TOKEN_EXPIRED_MESSAGE);

/** The member gate of `/proxy/*`. */
export const proxyAuth = memberAuth(proxyUnauthorized, proxyExpired);
