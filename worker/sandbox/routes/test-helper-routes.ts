import type { Context } from 'hono';
import * as v from 'valibot';
import { strictObjectMessage, TASK_STATUSES } from '../../../shared';
import { accountBook } from '../accounts';
import type { SandboxEnv } from '../env';
import { FAULT_TARGETS } from '../state/control';
import { helperInvalid, readChecked } from './body';
import { service } from './service-object';

/** Unknown keys, missing keys and non-object bodies each get their own wording. */
const NOT_A_FIELD = strictObjectMessage('is not a field of this call');

type C = Context<{ Bindings: SandboxEnv }>;

const int = (min: number, max: number) => v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

export const faultSchema = v.strictObject(
  {
    target: v.picklist(FAULT_TARGETS, `must be one of ${FAULT_TARGETS.join(', ')}`),
    status: int(200, 599),
    count: v.optional(int(1, 10_000), 1),
    retryAfter: v.optional(v.nullable(int(0, 86_400)), null),
    taskStatus: v.optional(v.nullable(v.picklist(TASK_STATUSES, `must be one of ${TASK_STATUSES.join(', ')}`)), null),
    delayMs: v.optional(int(0, 120_000), 0),
  },
  NOT_A_FIELD,
);

/** One move of the clock: at most a year (the whole offset is capped too, see ServiceState). */
export const CLOCK_STEP_MAX = 366 * 24 * 3600;

export const clockSchema = v.strictObject(
  {
    advanceSeconds: v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must not be negative'),
      v.maxValue(CLOCK_STEP_MAX, `must be at most ${CLOCK_STEP_MAX} (366 days)`),
    ),
    /** true stops the clock after the move, false lets it run on from where it stood. */
    freeze: v.optional(v.boolean('must be true or false')),
  },
  NOT_A_FIELD,
);

const bad = helperInvalid;

/** `POST /sandbox/faults`: the next `count` calls to `target` fail with `status`. */
export async function setFault(c: C): Promise<Response> {
  const checked = await readChecked(c, faultSchema);
  if (!checked.ok) return checked.response;
  const f = checked.value;
  if (f.status === 200 && !f.delayMs && !(f.target === 'v1-get' && f.taskStatus)) {
    return bad(c, 'status: 200 (no failure) needs delayMs, or taskStatus with target v1-get');
  }
  await service(c.env).setFault(f);
  return c.json({ fault: f });
}

/** `POST /sandbox/clock`: moves the sandbox's clock forward, and stops or restarts it. */
export async function advanceClock(c: C): Promise<Response> {
  const checked = await readChecked(c, clockSchema);
  if (!checked.ok) return checked.response;
  const moved = await service(c.env).advanceClock(checked.value.advanceSeconds, checked.value.freeze);
  return 'problem' in moved ? bad(c, moved.problem) : c.json(moved);
}

export const stats = async (c: C) => c.json(await service(c.env).stats());

export async function resetStats(c: C): Promise<Response> {
  await service(c.env).resetStats();
  return c.body(null, 204);
}

export const limitsSchema = v.strictObject(
  {
    account: v.pipe(v.string('must be a string'), v.maxLength(64, 'must be at most 64 characters')),
    /** null: back to SANDBOX_MAX_RUNNING. */
    maxRunning: v.nullable(int(0, 10_000)),
  },
  NOT_A_FIELD,
);

/** `POST /sandbox/limits`: one account's limit of tasks queued or in progress at once (SANDBOX_MAX_RUNNING for it alone). */
export async function setLimits(c: C): Promise<Response> {
  const checked = await readChecked(c, limitsSchema);
  if (!checked.ok) return checked.response;
  const { account, maxRunning } = checked.value;
  if (!accountBook(c.env.SANDBOX_ACCOUNTS).byName(account)) return bad(c, 'account: no account of the sandbox has this name');
  await service(c.env).setMaxRunning(account, maxRunning);
  return c.json({ account, maxRunning });
}
