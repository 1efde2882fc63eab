import type { QueueItem } from '../../../../shared';
import type { MemberContext } from '../members/member-context';
import { own } from '../members/owned';
import { isTimeout, videoCall, type Upstream } from '../../infra/upstream/fetch';
import { keepRequest } from '../sharing/task-request';
import { relayVideo } from '../video/video-relay';
import { retryAfterSeconds } from './backoff';
import type { LaunchOrder, LaunchResult } from './queue-port';

/**
 * A queued create launched by its member's object (the queue asks, queue-launcher.ts): the same
 * upstream create as a direct one, then owned, tracked and bound to its reservation like any task,
 * so it is priced and raises the same task events.
 *
 * Exactly once: what came of each item is kept here. An item is marked `sending` before the call;
 * asked again, a launched or failed item answers the same, one still sending in this instance
 * answers `pending`, and one left `sending` by a restart (cut off during the call: whether the
 * service made the task is unknown) is never sent again: it ends failed, its reservation released
 * and audited as the proxy's other cut-off creates are (docs/budgets.md); so does one the service
 * did not answer before the call's deadline. One that could not reach the service is queued again.
 *
 * A launch that ends failed raises `task.failed` (`failed`, called in the step that records it), its
 * data the item as `GET /proxy/queue/:id` answers it: a direct create hears its refusal in the
 * answer, a queued one only this way (docs/webhooks.md).
 */

const SCHEMA = `CREATE TABLE IF NOT EXISTS queue_launches (
  item TEXT PRIMARY KEY, state TEXT NOT NULL, task_id TEXT, error TEXT, at INTEGER NOT NULL)`;

/** Items being sent by this instance (a restarted instance has none). */
const sending = new WeakMap<SqlStorage, Set<string>>();

const UNKNOWN = {
  code: 'create_outcome_unknown',
  message: 'The proxy stopped while the video service was answering this create: whether it made a task is unknown, so it is not sent again. Its reservation was released; create again if no task appeared.',
};

const TIMED_OUT = {
  code: 'create_outcome_unknown',
  message: 'The video service did not answer this create in time: whether it made a task is unknown, so it is not sent again. Its reservation was released; create again if no task appeared.',
};

/** Told once of a launch that ended failed, with the item as its member reads it. */
export type LaunchFailed = (item: QueueItem) => void;

export async function launchQueued(m: MemberContext, order: LaunchOrder, failed: LaunchFailed = () => undefined): Promise<LaunchResult> {
  m.sql.exec(SCHEMA);
  const mine = sending.get(m.sql) ?? new Set<string>();
  sending.set(m.sql, mine);
  const row = m.sql.exec('SELECT * FROM queue_launches WHERE item = ?', order.id).toArray()[0] as { state: string; task_id: string | null; error: string | null; at: number } | undefined;
  if (row?.state === 'launched') return { kind: 'launched', taskId: row.task_id! };
  if (row?.state === 'failed') return { kind: 'failed', error: JSON.parse(row.error!) };
  if (row?.state === 'sending') {
    if (mine.has(order.id)) return { kind: 'pending' };
    await m.ledger().unknownCreate(order.reservation.id, { model: order.model, startedAt: row.at, keyed: false });
    return ended(m, order, { kind: 'failed', error: UNKNOWN }, failed);
  }
  const started = Date.now();
  m.sql.exec("INSERT INTO queue_launches (item, state, at) VALUES (?, 'sending', ?)", order.id, started);
  mine.add(order.id);
  let up: Upstream;
  try {
    up = await videoCall(m.env, 'POST', '/v1/video/generations', order.body);
  } catch (error) {
    // Abandoned at the deadline: the service may have made the task, so it is never sent again.
    if (isTimeout(error)) {
      await m.ledger().unknownCreate(order.reservation.id, { model: order.model, startedAt: started, keyed: false });
      return ended(m, order, { kind: 'failed', error: TIMED_OUT }, failed);
    }
    // Not reached: nothing was created; the queue tries again after its backoff.
    m.sql.exec('DELETE FROM queue_launches WHERE item = ?', order.id);
    return { kind: 'busy', retryAfter: null };
  } finally {
    mine.delete(order.id);
  }
  if (up.status === 429 || up.status === 503) {
    m.sql.exec('DELETE FROM queue_launches WHERE item = ?', order.id);
    return { kind: 'busy', retryAfter: retryAfterSeconds(up.retryAfter) };
  }
  const { body } = relayVideo(up);
  if (up.status === 200 && typeof body?.id === 'string' && typeof body?.status === 'string') {
    own(m.sql, 'task', body.id);
    m.tracker.record(body, up.body, order.reservation, started);
    keepRequest(m.sql, body.id, JSON.parse(order.body));
    const result = ended(m, order, { kind: 'launched', taskId: body.id }, failed);
    await m.ledger().bind(order.reservation.id, body.id, body.status).catch(() => undefined);
    return result;
  }
  // Refused by the service: its error as it said it; the reservation goes back.
  const error = { code: String(body?.error?.code ?? `http_${up.status}`).slice(0, 200), message: String(body?.error?.message ?? `The video service answered HTTP ${up.status}.`).slice(0, 2000) };
  await m.ledger().release(order.reservation.id);
  return ended(m, order, { kind: 'failed', error }, failed);
}

function ended(m: MemberContext, order: LaunchOrder, result: LaunchResult & { kind: 'launched' | 'failed' }, failed: LaunchFailed): LaunchResult {
  m.sql.exec(
    'UPDATE queue_launches SET state = ?, task_id = ?, error = ? WHERE item = ?',
    result.kind, result.kind === 'launched' ? result.taskId : null, result.kind === 'failed' ? JSON.stringify(result.error) : null, order.id,
  );
  if (result.kind === 'failed') {
    failed({ id: order.id, status: 'failed', position: null, model: order.model, createdAt: Math.floor(order.createdAt / 1000), taskId: null, error: result.error });
  }
  return result;
}
