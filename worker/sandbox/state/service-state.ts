import { DurableObject } from 'cloudflare:workers';
import type { Action, LibraryRequest, Reference, VideoCreateBody, VideoTask } from '../../../shared';
import { readTiming, type SandboxSettings } from '../sandbox-settings';
import * as assets from './assets';
import type { Ctx, Outcome } from './state-context';
import * as control from './control';
import { runPendingDownloads } from './pending-downloads';
import * as groups from './groups';
import * as portrait from './portrait-sessions';
import { SCHEMA } from './service-schema';
import * as tasks from './tasks';
import { setMaxRunning } from './running-limit';

type Handler = (ctx: Ctx, account: string, req: never) => Outcome<unknown>;

/** The twelve operations; each receives the request already validated by the shared schema. */
const OPERATIONS: Record<Action, Handler> = {
  CreateAssetGroup: groups.createGroup,
  ListAssetGroups: groups.listGroups,
  GetAssetGroup: groups.getGroup,
  UpdateAssetGroup: groups.updateGroup,
  DeleteAssetGroup: groups.deleteGroup,
  CreateAsset: assets.createAsset,
  GetAsset: assets.getAsset,
  ListAssets: assets.listAssets,
  UpdateAsset: assets.updateAsset,
  DeleteAsset: assets.deleteAsset,
  CreatePortraitSession: portrait.createSession,
  ResolvePartnerToken: portrait.resolveToken,
};

/**
 * The whole state of the sandbox service, for every account, in one SQLite-backed object:
 * the sandbox values strict consistency over scale. Downloads run from the alarm, so they
 * finish even when no request is waiting on them.
 */
export class ServiceState extends DurableObject<SandboxSettings> {
  #offset: number;
  /** Sandbox time at which a test stopped the clock, or null while it runs. */
  #frozenAt: number | null;

  constructor(state: DurableObjectState, env: SandboxSettings) {
    super(state, env);
    this.ctx.storage.sql.exec(SCHEMA);
    this.#offset = control.clockOffset(this.ctx.storage.sql);
    this.#frozenAt = control.clockFrozenAt(this.ctx.storage.sql);
  }

  #now(): number {
    return this.#frozenAt ?? Date.now() + this.#offset;
  }

  #ctx(origin = ''): Ctx {
    return { sql: this.ctx.storage.sql, now: this.#now(), timing: readTiming(this.env), origin };
  }

  async #scheduleDownloads(): Promise<void> {
    // Start now, beside any download under way (an alarm runs only after the current one ends,
    // so a slow URL would hold up every other asset); the alarm makes sure they all finish.
    this.ctx.waitUntil(runPendingDownloads(() => this.#ctx()).catch(() => undefined));
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    await runPendingDownloads(() => this.#ctx());
  }

  /** Counts a request and consumes an injected fault for its target, if one is set. */
  enter(target: control.FaultTarget, action: string): control.Fault | null {
    control.countRequest(this.ctx.storage.sql, target, action);
    return control.takeFault(this.ctx.storage.sql, target);
  }

  async library(account: string, action: Action, req: LibraryRequest<Action>, origin: string): Promise<Outcome<unknown>> {
    const outcome = OPERATIONS[action](this.#ctx(origin), account, req as never);
    if (action === 'CreateAsset' && outcome.ok) await this.#scheduleDownloads();
    return outcome;
  }

  async createTask(account: string, body: VideoCreateBody, references: Reference[], origin: string): Promise<tasks.TaskOutcome> {
    const outcome = tasks.createTask(this.#ctx(origin), account, body, references);
    if (outcome.ok && outcome.task.status === 'queued') await this.#scheduleDownloads();
    return outcome;
  }

  getTask(account: string, id: string, origin: string): VideoTask | null {
    const ctx = this.#ctx(origin);
    const row = tasks.ownTask(ctx, account, id);
    return row ? tasks.taskView(ctx, row) : null;
  }

  /** A completed task's output (its length, whether it has a last frame, whether its links expired). */
  taskOutput(id: string): tasks.TaskOutput | null {
    return tasks.taskOutput(this.#ctx(), id);
  }

  portraitPage(h5: string): portrait.PageState {
    return portrait.pageState(this.#ctx(), h5);
  }

  completePortrait(h5: string, name: string, description: string): Outcome<{ status: 'completed' }> {
    return portrait.completeCapture(this.#ctx(), h5, name, description);
  }

  setFault(spec: control.FaultSpec): void {
    control.setFault(this.ctx.storage.sql, spec);
  }

  /**
   * Moves the clock forward, within `control.CLOCK_OFFSET_MAX_SECONDS` in all; `freeze` stops it
   * (true) so that no processing time passes until a test says so, or lets it run on (false) from
   * where it stood, without a jump.
   */
  advanceClock(seconds: number, freeze?: boolean): { offsetSeconds: number; now: string; frozen: boolean } | { problem: string } {
    const offsetSeconds = this.#offset / 1000;
    if (offsetSeconds + seconds > control.CLOCK_OFFSET_MAX_SECONDS) {
      return {
        problem: `advanceSeconds: the sandbox clock may run at most ${control.CLOCK_OFFSET_MAX_SECONDS} seconds (100 years) ahead in all; it is ${offsetSeconds} seconds ahead now`,
      };
    }
    const sql = this.ctx.storage.sql;
    this.#offset = control.advanceClock(sql, seconds);
    if (this.#frozenAt !== null) this.#frozenAt += seconds * 1000;
    if (freeze === true && this.#frozenAt === null) this.#frozenAt = Date.now() + this.#offset;
    if (freeze === false && this.#frozenAt !== null) {
      this.#offset = this.#frozenAt - Date.now();
      control.setClockOffset(sql, this.#offset);
      this.#frozenAt = null;
    }
    control.setClockFrozenAt(sql, this.#frozenAt);
    return { offsetSeconds: Math.round(this.#offset) / 1000, now: new Date(this.#now()).toISOString(), frozen: this.#frozenAt !== null };
  }

  /** An account's own limit of tasks running at once (null: `SANDBOX_MAX_RUNNING` again). */
  setMaxRunning(account: string, maxRunning: number | null): void {
    setMaxRunning(this.ctx.storage.sql, account, maxRunning);
  }

  /** Removes every injected fault (for tests that install many). */
  clearFaults(): void {
    control.clearFaults(this.ctx.storage.sql);
  }

  /**
   * A summary of everything callers can create or change (rows and last changes of groups, assets,
   * tasks and portrait sessions, the faults and the clock): equal before and after a request when
   * the request changed nothing. Test support, not a route.
   */
  fingerprint(): string {
    return control.fingerprint(this.ctx.storage.sql);
  }

  stats(): control.Stats {
    return control.readStats(this.ctx.storage.sql);
  }

  resetStats(): void {
    control.resetStats(this.ctx.storage.sql);
  }
}
