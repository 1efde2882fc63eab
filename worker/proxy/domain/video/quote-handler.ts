import { pricedRequest } from '../../../../shared';
import { jsonResponse, type ProxyResponse } from '../../infra/http/responses';
import type { MemberContext } from '../members/member-context';
import { readVideoCreate } from './create-body';
import { checkReferences, ledgerRefusal } from './create-refusals';

/**
 * `POST /proxy/quote`: what a create of this body would reserve (the most it can cost), and what
 * the member's and the team's budgets have left, with nothing created or reserved. Every refusal
 * of the create is the quote's too, with the same status and code, in the same order: the body
 * (create-body.ts), the ledger's, the `asset://` references (create-refusals.ts; one GetAsset
 * each, as the create makes).
 */
export async function quoteTask(m: MemberContext, rawBody: ArrayBuffer): Promise<ProxyResponse> {
  const read = readVideoCreate(m, rawBody);
  if ('refused' in read) return read.refused;
  const quote = await m.ledger().quoteCreate(m.memberId, pricedRequest(read.create.body));
  if ('ok' in quote) return ledgerRefusal(quote);
  const rejected = await checkReferences(m, read.create);
  return rejected ?? jsonResponse(200, quote);
}
