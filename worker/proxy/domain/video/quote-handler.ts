import { pricedRequest } from '../../../../shared';
import { jsonResponse, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { readVideoCreate } from './create-body';

/**
 * `POST /proxy/quote`: what a create of this body would reserve (the most it can cost), and what
 * the member's and the team's budgets have left, with nothing created, reserved or sent upstream.
 * The body is checked as the create checks it (create-body.ts); one call to the ledger.
 */
export async function quoteTask(m: MemberContext, rawBody: ArrayBuffer): Promise<ProxyResponse> {
  const read = readVideoCreate(m, rawBody);
  if ('refused' in read) return read.refused;
  return jsonResponse(200, await m.ledger().quote(m.memberId, pricedRequest(read.create.body)));
}
