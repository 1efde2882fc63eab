/**
 * Bench section 9: the gateway's queue (docs/queue.md) when the service is busy. 1,000 creates
 * sent with `Prefer: respond-async` by 100 members at once, on a cap of 10 tasks running at the
 * service (`UPSTREAM_MAX_RUNNING=10`), against the sandbox with a short video time and tracking
 * every second. Printed: launches per second and the time from a slot freeing to the next launch
 * (p50/p90/p99), while the creates arrive and afterwards; the most tasks running at the service at
 * once; and fairness as Jain's index of launches per member over each window of 100 launches; each
 * against its goal. Bounded: 1,000 creates (`BENCH_QUEUE_CREATES`), `BENCH_QUEUE_SECONDS` (600).
 *
 * The sandbox answers times in whole seconds, too coarse for this, so the proxy reaches it through
 * a recording relay on 127.0.0.1 (here, in Node) that notes when each create arrives (ms). A task
 * ends at the sandbox exactly its video time after its create arrived (text only: no reference
 * downloads to wait for); with the queue never empty, the k-th launch past the first `cap` takes
 * the slot of the k-th task to end, so their difference is the time that slot stood free.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { TEST_PROXY_SECRETS, TEST_VARS, type Server } from '../../test/support/sandbox';
import { AdminClient } from '../lib/admin-client';
import { percentile, serve, verdict } from './measure';

const CREATES = Number(process.env.BENCH_QUEUE_CREATES ?? 1000);
const MEMBERS = 100;
const CAP = 10;
const VIDEO_SECONDS = Number(process.env.BENCH_QUEUE_VIDEO_SECONDS ?? 1);
const TRACK_SECONDS = 1;
/** The whole run is bounded: past this the section stops and says so. */
const DEADLINE_MS = Number(process.env.BENCH_QUEUE_SECONDS ?? 600) * 1000;
const WINDOW = 100;
/** Creates in flight at once while sending. */
const SENDING = 20;
const MODEL = 'doubao-seedance-2-0-260128';

export interface QueueGoals {
  /** Jain's index of launches per member, in every window of 100 launches. */
  queueJain: number;
  /** The slot's idle time at p99, beyond one tracking interval (the queue learns of an end by tracking). */
  queueIdleP99OverIntervalMs: number;
}

interface Launch {
  at: number;
  taskId: string | null;
}

/** Jain's fairness index of `counts` (1: equal; 1/n: one takes all). */
export const jain = (counts: number[]) => {
  const sum = counts.reduce((a, b) => a + b, 0);
  const squares = counts.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (counts.length * squares);
};

/** A relay to `target` that records each video create's arrival and the task id it made. */
async function recordingRelay(target: string) {
  const launches: Launch[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, value);
    const isCreate = req.method === 'POST' && req.url?.split('?')[0] === '/v1/video/generations';
    const launch: Launch | null = isCreate ? { at, taskId: null } : null;
    if (launch) launches.push(launch);
    try {
      const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await answer.arrayBuffer());
      if (launch && answer.status === 200) launch.taskId = (JSON.parse(body.toString('utf8')) as { id?: string }).id ?? null;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) out[name] = value;
      });
      res.writeHead(answer.status, out).end(body);
    } catch (error) {
      res.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, launches, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A create again after a dropped connection: its Idempotency-Key makes the retry safe (one item, one task). */
async function retried(send: () => Promise<Response>, attempts = 5): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(200 * attempt);
    }
  }
}

export async function queueSection(goals: QueueGoals): Promise<void> {
  console.log(`\nThe gateway's queue: ${CREATES} creates with Prefer: respond-async from ${MEMBERS} members, UPSTREAM_MAX_RUNNING=${CAP}, video time ${VIDEO_SECONDS} s, tracking every ${TRACK_SECONDS} s:`);
  const servers: Server[] = [];
  const started = performance.now();
  const late = () => performance.now() - started > DEADLINE_MS;
  try {
    const sandbox = await serve('worker/sandbox/wrangler.jsonc', { ...TEST_VARS, SANDBOX_VIDEO_SECONDS: String(VIDEO_SECONDS) });
    servers.push(sandbox);
    const relay = await recordingRelay(sandbox.url);
    servers.push({ url: relay.url, stop: relay.stop });
    const proxy = await serve('worker/proxy/wrangler.jsonc', {
      ASSET_API_BASE: sandbox.url, VIDEO_API_BASE: relay.url, ALLOW_HTTP_MEDIA: 'on', TRACK_INTERVAL_SECONDS: String(TRACK_SECONDS), UPSTREAM_MAX_RUNNING: String(CAP), ...TEST_PROXY_SECRETS,
    });
    servers.push(proxy);
    const admin = new AdminClient(proxy.url, TEST_PROXY_SECRETS.ADMIN_TOKEN);
    const members: { id: string; token: string }[] = [];
    for (let i = 0; i < MEMBERS; i++) members.push(await admin.add(`bench-queue-${i}`));
    const memberOfTask = new Map<string, number>();

    // Every member sends its creates one after another, all members at once, at most SENDING in
    // flight (workerd under Miniflare resets connections past a few dozen at once).
    const perMember = Math.ceil(CREATES / MEMBERS);
    const submitted = performance.now();
    let free = SENDING;
    const waiting: (() => void)[] = [];
    const slot = async () => {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    };
    const done = () => (waiting.length ? waiting.shift()!() : free++);
    await Promise.all(members.map(async (m, index) => {
      for (let k = 0; k < perMember && index + k * MEMBERS < CREATES; k++) {
        await slot();
        const r = await retried(() => fetch(`${proxy.url}/v1/video/generations`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${m.token}`, 'Content-Type': 'application/json', Prefer: 'respond-async', 'Idempotency-Key': `bench-queue-${index}-${k}` },
          body: JSON.stringify({ model: MODEL, prompt: 'bench', duration: 5 }),
        })).finally(done);
        const body = (await r.json()) as { id?: string };
        if (r.status === 200 && body.id) memberOfTask.set(body.id, index);
        else if (r.status !== 202) throw new Error(`queued create: HTTP ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }));
    const submitMs = performance.now() - submitted;

    while (relay.launches.filter((l) => l.taskId).length < CREATES && !late()) await sleep(250);
    const launches = relay.launches.filter((l) => l.taskId);
    if (launches.length < CREATES) console.log(`Stopped at the time bound (${DEADLINE_MS / 1000} s): ${launches.length} of ${CREATES} launched.`);
    const refused = relay.launches.length - launches.length;

    // Whose each launch was: the direct creates' answers, and every member's queue items.
    for (const [index, m] of members.entries()) {
      const list = (await (await fetch(`${proxy.url}/proxy/queue`, { headers: { Authorization: `Bearer ${m.token}` } })).json()) as { items: { taskId: string | null }[] };
      for (const item of list.items) if (item.taskId) memberOfTask.set(item.taskId, index);
    }

    const span = (launches.at(-1)!.at - launches[0]!.at) / 1000;
    const ends = launches.map((l) => l.at + VIDEO_SECONDS * 1000).sort((a, b) => a - b);
    const idle = launches.slice(CAP).map((l, k) => l.at - ends[k]!).sort((a, b) => a - b);
    // The most tasks running at the sandbox at once: each runs from its create to its end.
    const edges = launches.flatMap((l) => [[l.at, 1], [l.at + VIDEO_SECONDS * 1000, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let running = 0;
    let most = 0;
    for (const [, step] of edges) most = Math.max(most, (running += step));
    const windows: number[] = [];
    for (let w = 0; w + WINDOW <= launches.length; w += WINDOW) {
      const counts = new Array<number>(MEMBERS).fill(0);
      for (const l of launches.slice(w, w + WINDOW)) {
        const owner = memberOfTask.get(l.taskId!);
        if (owner !== undefined) counts[owner]!++;
      }
      windows.push(jain(counts));
    }
    const unknown = launches.filter((l) => !memberOfTask.has(l.taskId!)).length;
    const idleGoal = TRACK_SECONDS * 1000 + goals.queueIdleP99OverIntervalMs;
    // While creates still arrive every launch waits its turn behind them in the ledger and the
    // queue object; afterwards the queue has the objects to itself: both phases are shown.
    const sentAt = submitted + submitMs;
    const phase = (name: string, inPhase: (at: number) => boolean) => {
      const own = launches.filter((l) => inPhase(l.at));
      const gaps = launches.slice(CAP).map((l, k) => [l.at, l.at - ends[k]!] as const).filter(([at]) => inPhase(at)).map(([, gap]) => gap).sort((a, b) => a - b);
      const seconds = own.length > 1 ? (own.at(-1)!.at - own[0]!.at) / 1000 : 0;
      return [name, {
        launches: own.length,
        'per second': seconds ? Number((own.length / seconds).toFixed(2)) : 0,
        'slot free to launch p50': gaps.length ? `${percentile(gaps, 50).toFixed(0)} ms` : '',
        p90: gaps.length ? `${percentile(gaps, 90).toFixed(0)} ms` : '',
        p99: gaps.length ? `${percentile(gaps, 99).toFixed(0)} ms` : '',
      }] as const;
    };
    console.log(`${CREATES} creates sent in ${(submitMs / 1000).toFixed(1)} s (${SENDING} in flight); ${launches.length} launched at the service in ${span.toFixed(1)} s; ceiling ${(CAP / VIDEO_SECONDS).toFixed(0)} launches/s (cap / video time).`);
    console.table(Object.fromEntries([
      phase('while creates arrive', (at) => at <= sentAt),
      phase('after the last create was answered', (at) => at > sentAt),
      phase('whole run', () => true),
    ]));
    const p99 = percentile(idle, 99);
    console.log(`Most running at the service at once: ${most}; creates the service refused: ${refused}; launches of no known member: ${unknown}.`);
    console.log(`Jain's index per window of ${WINDOW} launches: ${windows.map((j) => j.toFixed(3)).join(', ')}.`);
    console.log(`Fairness: the lowest window ${Math.min(...windows).toFixed(3)}, goal >= ${goals.queueJain} ${verdict(Math.min(...windows) >= goals.queueJain && unknown === 0)}.`);
    console.log(`Slot free to launch at p99 (whole run) ${p99.toFixed(0)} ms, goal <= ${idleGoal} ms (one tracking interval plus ${goals.queueIdleP99OverIntervalMs} ms) ${verdict(p99 <= idleGoal)}.`);
    console.log(`Never over the cap: at most ${most} running, cap ${CAP} ${verdict(most <= CAP && refused === 0)}; all ${CREATES} launched ${verdict(launches.length === CREATES)}.`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
