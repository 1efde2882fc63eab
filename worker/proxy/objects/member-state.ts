import { DurableObject } from 'cloudflare:workers';
import { type FollowedAsset, type MemberProfile, type MemberScope, type MemberScopeChange, type TokenInfo, type UsageView } from '../../../shared';
import type { ProxyResponse } from '../infra/http/responses';
import { handleLibrary, type LibraryCall } from '../domain/library/library-handler';
import { handleVideo, type VideoCall } from '../domain/video/video-handler';
import { quoteTask } from '../domain/video/quote-handler';
import { listConsents, recordConsent, type Consent } from '../domain/members/consents';
import type { MemberContext } from '../domain/members/member-context';
import { CREATES_SCHEMA, MEMBER_SCHEMA, openTaskSchema, type ProfileRow } from '../domain/members/member-schema';
import { owns } from '../domain/members/owned';
import { readScope, SCOPE_SCHEMA, scopeExpired, writeScope } from '../domain/members/member-scope';
import { ADDED_LABEL, ROTATED_LABEL, TokenBook } from '../domain/members/member-tokens';
import { hashToken, newToken } from '../domain/members/token';
import { AccessKeyBook, type AccessKeyAnswer, type AccessKeyCall } from '../domain/members/access-keys';
import { refuseSigned, type SignedRequest } from '../domain/members/signed-calls';
import type { ProxyEnv } from '../infra/settings/proxy-env';
import { accessKeySecret, allowHttpMedia } from '../infra/settings/proxy-settings';
import { assetHolderPort, auditPort, ledgerPort, queuePort, rosterPort, sourceHolderPort, teamLibraryPort, teamWebhookPort } from './object-stubs';
import { launchQueued } from '../domain/queue/queued-launch';
import type { LaunchOrder, LaunchResult } from '../domain/queue/queue-port';
import { WebhookOutbox, type HandedEvent } from '../domain/webhooks/webhook-outbox';
import { AssetFollower, ASSET_EVENTS } from '../domain/tracking/asset-follower';
import { answerWebhookCall, type WebhookCall } from '../domain/webhooks/webhook-calls';
import { TaskTracker } from '../domain/tracking/task-tracker';
import { CreatesInFlight } from '../domain/video/creates-in-flight';
import { adoptLibrary, heldLibrary, releaseLibrary } from '../domain/sharing/held-library';
import { migrateMemberForSharing } from '../domain/sharing/library-schema';
import { memberGroups } from '../domain/sharing/member-groups';
import { handleSharing, type SharingCall } from '../domain/sharing/sharing-handler';
import type { HeldLibrary } from '../domain/sharing/sharing-ports';
import { claimUpload, forgetUpload, UPLOAD_INDEX_SCHEMA } from '../domain/media/upload-index';
import { handleSources, readSources, SOURCE_SCHEMA, type SourceCall } from '../domain/sharing/asset-sources';
import { forgetHere, RemovalNotes } from '../domain/sharing/asset-removals';
import { readableAssets } from '../domain/sharing/shared-access';

export type Profile = MemberProfile;

/**
 * One member's state, strongly consistent: token hash, owned ids, idempotency records,
 * portrait handles, consents. Each authenticated request is handled here in one call.
 */
export class MemberState extends DurableObject<ProxyEnv> {
  readonly #tracker: TaskTracker;
  readonly #creates: CreatesInFlight;
  /** The member's tokens (domain/members/member-tokens.ts). */
  readonly #tokens: TokenBook;
  readonly #keys: AccessKeyBook;
  readonly #webhooks: WebhookOutbox;
  readonly #assets: AssetFollower;
  readonly #removals = new RemovalNotes(this.ctx.storage.sql); // made before the constructor's body: its table stands alone
  /** The alarm time last set (undefined: not known in this instance, or it fired). */
  #alarmAt: number | null | undefined;

  constructor(state: DurableObjectState, env: ProxyEnv) {
    super(state, env);
    this.ctx.storage.sql.exec(MEMBER_SCHEMA);
    openTaskSchema(this.ctx.storage.sql);
    this.ctx.storage.sql.exec(CREATES_SCHEMA);
    migrateMemberForSharing(this.ctx.storage.sql);
    this.ctx.storage.sql.exec(SCOPE_SCHEMA);
    this.ctx.storage.sql.exec(UPLOAD_INDEX_SCHEMA);
    this.ctx.storage.sql.exec(SOURCE_SCHEMA);
    this.#tokens = new TokenBook(this.ctx.storage.sql);
    this.#keys = new AccessKeyBook(this.ctx.storage.sql, () => accessKeySecret(env));
    this.#tracker = new TaskTracker({
      sql: this.ctx.storage.sql,
      env,
      ledger: () => ledgerPort(env),
      setAlarm: () => this.#armAlarm(),
      memberId: () => this.#row()?.id ?? null,
      memberName: () => this.#row()?.name ?? null,
      // A task that ended frees a slot at the service: the team's queue looks at once (docs/queue.md).
      ended: (taskId, status, answer) => void (this.#webhooks.emit(`task.${status}`, answer, { source: `task:${taskId}`, handTo: ['team'] }), this.ctx.waitUntil(queuePort(env).nudge().catch(() => undefined))),
    });
    // Events of the member's tasks and assets: to the member's webhook, and handed to the team's.
    this.#webhooks = new WebhookOutbox({ sql: this.ctx.storage.sql, hand: (_team, event) => teamWebhookPort(env).acceptEvent(event), armAlarm: () => this.#armAlarm(), allowLoopback: allowHttpMedia(env) });
    this.#assets = new AssetFollower({
      sql: this.ctx.storage.sql,
      env,
      wanted: async () => this.#webhooks.wants(ASSET_EVENTS) || teamWebhookPort(env).webhookWants([...ASSET_EVENTS]),
      ended: (asset, owner) => {
        const data = { ...asset, arkbridge: { owner, createdBy: this.#row()?.id ?? null } };
        this.#webhooks.emit(asset.Status === 'Active' ? 'asset.active' : 'asset.failed', data, { source: `asset:${asset.Id}`, handTo: ['team'] });
      },
      armAlarm: () => this.#armAlarm(),
    });
    this.#creates = new CreatesInFlight({ sql: this.ctx.storage.sql, env, ledger: () => ledgerPort(env), armAlarm: () => this.#armAlarm() });
  }

  /**
   * The object's one alarm: creates cut off mid-way are resolved (domain/video/creates-in-flight.ts),
   * then the member's tasks are followed (domain/tracking/task-tracker.ts).
   */
  override async alarm(): Promise<void> {
    this.#alarmAt = undefined;
    this.#tracker.alarmFired();
    await this.#creates.sweep();
    await this.#tracker.runDue();
    await this.#assets.runDue();
    await this.#sendRemovals();
    await this.#webhooks.runDue();
    this.#armAlarm();
  }

  /** Points the alarm at the earliest of the next task check, create deadline, asset listing and webhook delivery. */
  #armAlarm(): void {
    // The outbox and the follower may arm it while the constructor still builds them.
    const times = [this.#tracker.nextCheckAt(), this.#creates?.nextDeadline() ?? null, this.#assets?.nextAt() ?? null, this.#webhooks?.nextAt() ?? null, this.#removals.nextAt()].filter((t): t is number => t !== null);
    const next = times.length ? Math.min(...times) : null;
    if (next === this.#alarmAt) return;
    this.#alarmAt = next;
    void (next === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(Math.max(next, Date.now())));
  }

  /**
   * The profile row and the context built from it, read once per instance rather than per call:
   * only init, revoke and a change of scope change them, all here and one at a time, and each drops
   * it. So a revoked member or a changed scope is in force from the next call on, as with a read per call.
   */
  #cached: { row: ProfileRow; context: MemberContext } | null | undefined;

  #profileRow(): { row: ProfileRow; context: MemberContext } | null {
    if (this.#cached === undefined) {
      const row = this.ctx.storage.sql.exec('SELECT * FROM profile').toArray()[0] as ProfileRow | undefined;
      const sql = this.ctx.storage.sql, context = (id: string): MemberContext => ({ sql, env: this.env, memberId: id, waitUntil: (p) => this.ctx.waitUntil(p), ledger: () => ledgerPort(this.env), queue: () => queuePort(this.env),
        team: () => teamLibraryPort(this.env), tracker: this.#tracker, creates: this.#creates, scope: readScope(sql), assets: this.#assets, removals: this.#removals,
      });
      this.#cached = row ? { row, context: context(row.id) } : null;
    }
    return this.#cached;
  }

  #row(): ProfileRow | undefined {
    return this.#profileRow()?.row;
  }

  /** The member, when `tokenHash` is one of their tokens and they are neither revoked nor expired. */
  #member(tokenHash: string): MemberContext | null {
    const profile = this.#profileRow();
    const now = Date.now();
    if (!profile || profile.row.revoked || scopeExpired(profile.context.scope, now) || !this.#tokens.use(tokenHash, now)) return null;
    return profile.context;
  }

  /** Why a request with this token was refused: `token_expired` only for a token of this member whose scope has expired. */
  refusal(tokenHash: string): 'token_expired' | 'unauthorized' {
    const profile = this.#profileRow();
    const expired = profile && !profile.row.revoked && scopeExpired(profile.context.scope, Date.now()) && this.#tokens.holds(tokenHash);
    return expired ? 'token_expired' : 'unauthorized';
  }

  // --- administration (called by the directory) ---

  init(id: string, name: string, tokenHash: string, label = ADDED_LABEL): Profile {
    const now = Date.now();
    this.ctx.storage.sql.exec('INSERT INTO profile (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)', id, name, tokenHash, now);
    this.#tokens.add(label, tokenHash, now);
    this.#cached = undefined;
    return this.profile()!;
  }

  /** The admin's rotation: every token of the member is replaced by this one. */
  rotate(tokenHash: string): boolean {
    if (!this.#active()) return false;
    this.#tokens.replaceAll({ label: ROTATED_LABEL, tokenHash, now: Date.now() });
    this.#keys.removeAll();
    this.ctx.storage.sql.exec('UPDATE profile SET token_hash = ?', tokenHash);
    return true;
  }

  revoke(): boolean {
    const revoked = this.ctx.storage.sql.exec("UPDATE profile SET revoked = 1, token_hash = '' WHERE revoked = 0").rowsWritten > 0;
    this.#tokens.replaceAll(null);
    this.#keys.removeAll();
    this.#cached = undefined;
    return revoked;
  }

  profile(): Profile | null {
    const profile = this.#profileRow();
    if (!profile) return null;
    const { row, context } = profile;
    return { id: row.id, name: row.name, createdAt: new Date(row.created_at).toISOString(), revoked: row.revoked === 1, scope: context.scope };
  }

  #active(): boolean {
    const row = this.#row();
    return Boolean(row && !row.revoked);
  }

  /** The admin's change of scope (domain/members/member-scope.ts): the scope in force, or null for no active member. */
  setScope(change: MemberScopeChange): MemberScope | null {
    if (!this.#active()) return null;
    const scope = writeScope(this.ctx.storage.sql, change);
    this.#cached = undefined;
    return scope;
  }

  /** The member's tokens as the admin sees them (none marked current); null for no such member. */
  adminTokens(): TokenInfo[] | null {
    return this.#row() ? this.#tokens.list(null) : null;
  }

  /** The admin's revocation of one token: null for no such member, false for no such token. */
  adminDeleteToken(tokenId: string): boolean | null {
    return this.#row() ? this.#tokens.remove(tokenId) : null;
  }

  /**
   * A new token for a browser, minted without a token (member sign-in, after the directory found the
   * member): `revoked` or `expired` when the member may not sign in, `full` at the most tokens.
   */
  mintToken(label: string): { id: string; label: string; token: string } | 'revoked' | 'expired' | 'full' {
    const profile = this.#profileRow();
    if (!profile || profile.row.revoked) return 'revoked';
    if (scopeExpired(profile.context.scope, Date.now())) return 'expired';
    return this.#newToken(profile.row.id, label) ?? 'full';
  }

  #newToken(memberId: string, label: string): { id: string; label: string; token: string } | null {
    const token = newToken(memberId);
    const added = this.#tokens.add(label, hashToken(token), Date.now());
    return added && { ...added, token };
  }

  // --- the member's own tokens (`/proxy/tokens`): null means the token is not (or no longer) valid ---

  tokens(tokenHash: string): TokenInfo[] | null {
    return this.#member(tokenHash) ? this.#tokens.list(tokenHash) : null;
  }

  addToken(tokenHash: string, label: string): { id: string; label: string; token: string } | 'full' | null {
    const m = this.#member(tokenHash);
    return m ? (this.#newToken(m.memberId, label) ?? 'full') : null;
  }

  /** Null for an invalid token, false for no such token of the member. */
  deleteToken(tokenHash: string, tokenId: string): boolean | null {
    return this.#member(tokenHash) ? this.#tokens.remove(tokenId) : null;
  }

  /** The member's access keys, asked with one of their tokens, or by the admin (`tokenHash` null): null for no valid member. */
  accessKeys(tokenHash: string | null, call: AccessKeyCall): Promise<AccessKeyAnswer> | null {
    const memberId = tokenHash === null ? this.#row()?.id : this.#member(tokenHash)?.memberId;
    return memberId ? this.#keys.call(memberId, call, Date.now()) : null;
  }

  // --- member requests: null means the token is not (or no longer) valid ---

  me(tokenHash: string): { id: string; name: string } | null {
    const m = this.#member(tokenHash);
    return m ? { id: m.memberId, name: this.#row()!.name } : null;
  }

  async library(tokenHash: string, call: LibraryCall): Promise<ProxyResponse | null> {
    const m = this.#member(tokenHash);
    return m ? this.#libraryAs(m, call) : null;
  }

  /** `/api/v3` signed with one of the member's access keys: verified here, then handled exactly as the bearer call. */
  async signedLibrary(signed: SignedRequest, call: LibraryCall): Promise<ProxyResponse> {
    const profile = this.#profileRow();
    const member = profile && !profile.row.revoked ? profile.context : null;
    return (await refuseSigned(this.#keys, member, signed, call.body, call.action, Date.now())) ?? this.#libraryAs(member!, call);
  }

  async #libraryAs(m: MemberContext, call: LibraryCall): Promise<ProxyResponse> {
    const answer = await handleLibrary(m, call);
    // A delete's news for the team library and the asset's owner, told before it is answered; none held, the alarm stands.
    if (this.#removals.nextAt() !== null) await this.#sendRemovals();
    return answer;
  }

  /** Tells the other objects of assets deleted here (domain/sharing/asset-removals.ts); what fails waits for the alarm. */
  async #sendRemovals(): Promise<void> {
    const id = this.#row()?.id;
    if (id) await this.#removals.send({ memberId: id, team: () => teamLibraryPort(this.env), holder: (owner) => assetHolderPort(this.env, owner) });
    this.#armAlarm();
  }

  /** Another member (an editor) deleted an asset of this member's library through the proxy: gone from here too. */
  assetRemoved(assetId: string): void {
    const context = this.#profileRow()?.context;
    if (context) forgetHere(context, assetId);
  }

  video(tokenHash: string, call: VideoCall): Promise<ProxyResponse> | null {
    const m = this.#member(tokenHash);
    return m ? handleVideo(m, call) : null;
  }

  /** The queue launches a queued create of this member's (domain/queue/queued-launch.ts); a revoked member's fails. */
  async launchQueued(order: LaunchOrder): Promise<LaunchResult> {
    if (this.#active()) return launchQueued(this.#profileRow()!.context, order, (item) => this.#webhooks.emit('task.failed', item, { source: `queue:${item.id}`, handTo: ['team'] }));
    await ledgerPort(this.env).release(order.reservation.id);
    return { kind: 'failed', error: { code: 'member_revoked', message: 'The member was revoked before this create launched; nothing was created.' } };
  }

  /** `POST /proxy/quote`: what a create of this body would reserve; nothing is created or reserved. */
  quote(tokenHash: string, body: ArrayBuffer): Promise<ProxyResponse> | null {
    const m = this.#member(tokenHash);
    return m ? quoteTask(m, body) : null;
  }

  /** The member's budget and spend (GET /proxy/usage), from the team ledger. */
  async usage(tokenHash: string): Promise<UsageView | null> {
    const m = this.#member(tokenHash);
    return m ? m.ledger().usage(m.memberId) : null;
  }

  /** `DELETE /proxy/outputs/:taskId`: null for an invalid token, false when the member has no kept copy of that task. */
  async deleteOutput(tokenHash: string, taskId: string): Promise<boolean | null> {
    const m = this.#member(tokenHash);
    if (!m) return null;
    const deleted = owns(m.sql, 'task', taskId) && (await m.tracker.deleteKept(taskId));
    // A published video keeps its gallery entry, without an address.
    if (deleted) await m.team().forgetKept(taskId).catch(() => undefined);
    return deleted;
  }

  /** The member's uploads by content (domain/media/upload-index.ts), asked by `POST`, `DELETE /proxy/uploads` after the token was checked. */
  claimUpload(sha256: string, id: string, expiresAt: number, replace = false): string | null {
    return claimUpload(this.ctx.storage.sql, sha256, id, expiresAt, Math.floor(Date.now() / 1000), replace);
  }

  forgetUpload(id: string): void {
    forgetUpload(this.ctx.storage.sql, id);
  }

  addConsent(tokenHash: string, scope: string, rulesVersion: string): Consent | null {
    return this.#member(tokenHash) ? recordConsent(this.ctx.storage.sql, scope, rulesVersion, Date.now()) : null;
  }

  consents(tokenHash: string): Consent[] | null {
    return this.#member(tokenHash) ? listConsents(this.ctx.storage.sql) : null;
  }

  // --- the member's webhook (docs/webhooks.md) ---

  /** `/proxy/webhook` and its deliveries. */
  webhook(tokenHash: string, call: WebhookCall): ProxyResponse | null {
    return this.#member(tokenHash) ? answerWebhookCall(this.#webhooks, call) : null;
  }

  /** An event for the member's webhook from the team ledger (an alert of the member's budget). */
  acceptEvent(event: HandedEvent): void {
    this.#webhooks.accept(event);
  }

  // --- the team library (docs/team-library.md) ---

  /** Sharing of groups and the gallery, as the member asks them. */
  sharing(tokenHash: string, call: SharingCall): Promise<ProxyResponse> | null {
    const m = this.#member(tokenHash);
    if (!m) return null;
    const deps = { memberName: this.#row()!.name, roster: () => rosterPort(this.env), audit: () => auditPort(this.env) };
    return handleSharing(m, deps, call);
  }

  /** Sources of assets (`/proxy/assets/:id/source`, `/proxy/sources`): set by the owner, read through the sharing rules. */
  sources(tokenHash: string, call: SourceCall): Promise<ProxyResponse> | null {
    const m = this.#member(tokenHash);
    return m ? handleSources(m, { holder: (owner) => sourceHolderPort(this.env, owner) }, call) : null;
  }

  /** How the assets this member created through the proxy stand (`POST /proxy/assets/statuses`): followed ones it may still see. */
  async assetStatuses(tokenHash: string, ids: string[]): Promise<FollowedAsset[] | null> {
    const m = this.#member(tokenHash);
    if (!m) return null;
    const known = this.#assets.statuses(ids);
    const readable = await readableAssets(m, known.map((a) => a.id));
    return known.filter((a) => readable.has(a.id));
  }

  /** Sources of this member's assets, for another member's object that checked the reader may see them. */
  sourcesOf(assetIds: string[]) {
    const id = this.#row()?.id;
    return id ? readSources(this.ctx.storage.sql, id, assetIds) : {};
  }

  /** The member's groups and their sharing (admin; revoked members included). */
  async libraryOverview() {
    const context = this.#profileRow()?.context;
    return context ? memberGroups(context) : null;
  }

  /** The transfer of a member's groups (admin): what this object owns, adopting, releasing. */
  libraryExport(): HeldLibrary {
    return heldLibrary(this.ctx.storage.sql);
  }

  libraryAdopt(held: HeldLibrary): void {
    adoptLibrary(this.ctx.storage.sql, held);
  }

  libraryRelease(groupIds: string[]): void {
    releaseLibrary(this.ctx.storage.sql, groupIds);
  }
}
