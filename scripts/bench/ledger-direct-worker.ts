/**
 * Bench only: `POST /__bench/ledger/creates?n=<creates>&concurrency=<in flight>&members=<count>`
 * runs the ledger's whole part of `n` creates straight against a team ledger of its own (the
 * proxy's TeamLedger class, a ledger named `bench`): for each, `reserve` (5 s of the bench model,
 * no budget), `bind` to a task id, `settle` as failed (released, so no alert fires); `concurrency`
 * creates at a time, spread over `members` member ids. Answers `{ created }`. Timed from outside:
 * the ledger's ceiling, with no member object, no sandbox and no proxy routing on the way.
 */

/** The part of the ledger used here (scripts are type-checked without the Workers types). */
interface Ledger {
  reserve(member: string, request: { model: string; duration: number }): Promise<{ ok: boolean; id?: string }>;
  bind(reservation: string, taskId: string, status: string): Promise<unknown>;
  settle(reservation: string, taskId: string, ending: 'failed', tokens: null): Promise<unknown>;
}
interface Env {
  LEDGER: { idFromName(name: string): unknown; get(id: unknown): Ledger };
}

const MODEL = 'doubao-seedance-2-0-260128';
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/__bench/ledger/creates') return answer(404, { error: 'not a bench route' });
    const n = Number(url.searchParams.get('n') ?? 100);
    const concurrency = Number(url.searchParams.get('concurrency') ?? 8);
    const members = Number(url.searchParams.get('members') ?? 8);
    const ledger = env.LEDGER.get(env.LEDGER.idFromName('bench'));
    let next = 0;
    let created = 0;
    const lane = async () => {
      while (next < n) {
        const i = next++;
        const r = await ledger.reserve(`mbench${i % members}`, { model: MODEL, duration: 5 });
        if (!r.ok || !r.id) throw new Error('reservation refused');
        const task = `cgt-bench-${r.id}`;
        await ledger.bind(r.id, task, 'queued');
        await ledger.settle(r.id, task, 'failed', null);
        created++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    return answer(200, { created });
  },
};
