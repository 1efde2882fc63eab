/**
 * Build-time defaults. `npm start` builds with WXT_DEFAULT_PROXY_URL set to the local proxy, so a
 * newcomer only pastes the dev member token. Tokens are never built in.
 */
export const DEFAULT_PROXY_URL: string = import.meta.env.WXT_DEFAULT_PROXY_URL ?? '';
