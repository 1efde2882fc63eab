import { tokenListSchema, type TokenInfo } from '@@/shared';
import { callJson } from '@/lib/proxy/proxy-json';
import type { ProxyClient } from '@/lib/proxy/proxy-client';

/**
 * The member's own tokens, one per browser (docs/identity.md on the proxy's side): listed without
 * the tokens themselves (the one of this browser marked `current`), and revoked one at a time.
 */

type Client = Pick<ProxyClient, 'send' | 'proxyUrl'>;

/** `GET /proxy/tokens`: oldest first. */
export const listTokens = async (client: Client, signal?: AbortSignal): Promise<TokenInfo[]> =>
  (await callJson(client, { method: 'GET', path: '/proxy/tokens', schema: tokenListSchema, signal })).tokens;

/** `DELETE /proxy/tokens/:id`: that browser's token stops working at its next request. */
export const revokeToken = (client: Client, tokenId: string): Promise<void> =>
  callJson(client, { method: 'DELETE', path: `/proxy/tokens/${encodeURIComponent(tokenId)}`, schema: null });
