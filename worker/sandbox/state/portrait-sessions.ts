import type { LibraryRequest, PortraitSession, ResolvedPortrait } from '../../../shared';
import { insertAsset } from './assets';
import { accessDenied, failure, iso, rows, success, validationError, type Ctx, type Outcome } from './state-context';
import { insertGroup } from './groups';
import { randomHex } from '../../../shared';

export interface PortraitRow {
  token: string;
  h5: string;
  account: string;
  continuous: number;
  created_at: number;
  expires_at: number;
  state: 'pending' | 'completed' | 'resolved';
  group_name: string | null;
  group_description: string | null;
  group_id: string | null;
}


export const h5Link = (origin: string, h5: string) => `${origin}/h5/portrait/${h5}`;

export function createSession(ctx: Ctx, account: string, req: LibraryRequest<'CreatePortraitSession'>): Outcome<PortraitSession> {
  const token = `pt-${randomHex(24)}`;
  const h5 = randomHex(12);
  const expiresAt = ctx.now + ctx.timing.portraitSeconds * 1000;
  ctx.sql.exec(
    "INSERT INTO portraits (token, h5, account, continuous, created_at, expires_at, state) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
    token, h5, account, req.ContinuousCreate ? 1 : 0, ctx.now, expiresAt,
  );
  return success({ H5Link: h5Link(ctx.origin, h5), PartnerToken: token, ExpiresIn: ctx.timing.portraitSeconds, ExpireTime: iso(expiresAt) });
}

export function resolveToken(ctx: Ctx, account: string, req: LibraryRequest<'ResolvePartnerToken'>): Outcome<ResolvedPortrait> {
  const row = rows<PortraitRow>(ctx.sql, 'SELECT * FROM portraits WHERE token = ?', req.PartnerToken)[0];
  if (!row) return validationError('PartnerToken: this token is not valid; create a new portrait session.');
  if (row.account !== account) return accessDenied('Portrait session', 'for this PartnerToken');
  if (row.state === 'resolved') return validationError('PartnerToken: this session was already resolved and is no longer valid.');
  if (ctx.now >= row.expires_at) {
    return validationError(`PartnerToken: this session expired at ${iso(row.expires_at)}; create a new session.`);
  }
  if (row.state === 'pending') {
    return validationError('PartnerToken: the person has not completed authorization and capture yet; retry later.');
  }
  const name = row.group_name ?? '';
  const description = row.group_description ?? '';
  const groupId = insertGroup(ctx, account, name, description, 'LivenessFace');
  // The phone flow's captures: already reviewed, hence Active at once.
  const captures = row.continuous ? 2 : 1;
  for (let i = 1; i <= captures; i++) {
    insertAsset(ctx, account, groupId, 'Image', `${name} capture ${i}`, `${ctx.origin}/sandbox/media/portrait.png`, 'ok');
  }
  ctx.sql.exec("UPDATE portraits SET state = 'resolved', group_id = ? WHERE token = ?", groupId, row.token);
  return success({ GroupId: groupId, GroupName: name, GroupDescription: description });
}

/** What the H5 page needs to render a session. */
export type PageState =
  | { state: 'missing' }
  | { state: 'expired' | 'completed' | 'resolved' | 'pending'; expiresAt: number; continuous: boolean };

export function pageState(ctx: Ctx, h5: string): PageState {
  const row = rows<PortraitRow>(ctx.sql, 'SELECT * FROM portraits WHERE h5 = ?', h5)[0];
  if (!row) return { state: 'missing' };
  const state = row.state === 'pending' && ctx.now >= row.expires_at ? 'expired' : row.state;
  return { state, expiresAt: row.expires_at, continuous: row.continuous === 1 };
}

/** The phone's submission: consent given, capture done, group name and description entered. */
export function completeCapture(ctx: Ctx, h5: string, name: string, description: string): Outcome<{ status: 'completed' }> {
  const page = pageState(ctx, h5);
  if (page.state === 'missing') return failure(404, 'NotFound', 'H5Link: no portrait session has this link.');
  if (page.state === 'expired') return failure(410, 'Expired', 'H5Link: this session has expired; ask for a new QR code.');
  if (page.state !== 'pending') return failure(409, 'AlreadyCompleted', 'H5Link: this session was already completed.');
  ctx.sql.exec(
    "UPDATE portraits SET state = 'completed', group_name = ?, group_description = ? WHERE h5 = ?",
    name, description, h5,
  );
  return success({ status: 'completed' });
}
