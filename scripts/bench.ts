/**
 * `npm run bench`: what the proxy costs, measured side by side in one run (never in tests).
 *
 * 1. Signing one `/api/v3` request: in Node, and inside workerd against a native HMAC-SHA256 with
 *    a cached key (a bench-only Worker, scripts/bench/, timed from outside, so that no clock inside
 *    the Worker is needed: on Cloudflare it stands still during pure CPU work).
 * 2. Latency by ablation: requests of increasing depth, interleaved in rotating order over one
 *    keep-alive connection per server, so that every step sees the same machine conditions. The
 *    difference between two steps is what the deeper one adds; the differences add up to proxied
 *    minus direct, the latency the proxy adds, checked against the goal. The Workers run in
 *    workerd with nothing in front of them, as deployed (scripts/bench/serve.ts), logs on. Beside
 *    the bearer call, the same call signed with a member's access key: what verifying adds. What the
 *    proxy adds is also printed against the direct call's own time (goal: at most 1.2x at p50).
 * 3. Video creates through the proxy in front of the sandbox: a member with a budget against one
 *    without, and by ablation what the ledger's reservation itself adds (a create refused at the
 *    ledger minus one refused before it).
 * 4. The same comparison with the proxy under `wrangler dev`, as `npm start` runs it, to show what
 *    the dev tool adds on its own.
 * 5. Uploads: a 50 MB video POSTed to the proxy's `/proxy/uploads` against the same bytes written
 *    to the same local R2 bucket by a bench-only Worker in the same workerd (scripts/bench/
 *    r2-direct-worker.ts), interleaved, MB/s; and workerd's resident memory (/proc VmRSS every
 *    50 ms): the rise over its baseline during a first upload, the proxy's against the direct
 *    write's, and what more uploads at once add, which for bodies that stream is far less than 50 MB each.
 * 6. How many creates a second one team ledger sustains: the ledger's part of a create straight to
 *    the object (a bench-only Worker in the proxy's workerd, scripts/bench/ledger-direct-worker.ts),
 *    and concurrent creates of several members through the proxy (scripts/bench/ledger.ts).
 * 7. Sharing: a grantee's GetAsset of a shared group's asset against its owner's (the one call to
 *    the team library a grantee's check costs), with the p50 difference against its goal.
 * 8. The extension's Library search as you type at 10,000 assets: per keystroke, median and p95,
 *    beside one MiniSearch query over the whole index per keystroke (scripts/bench/search.ts).
 * 9. The gateway's queue (docs/queue.md): 1,000 creates with `Prefer: respond-async` from 100
 *    members on a cap of 10 running at the service: launches per second, the time from a slot
 *    freeing to the next launch, and fairness (Jain's index per window of 100 launches)
 *    (scripts/bench/queue.ts).
 * `npm run bench -- search` (or any section names: signing, latency, uploads, ledger, sharing,
 * search, queue) runs only those; `proxied` runs the latency steps of section 2 alone (no creates, no
 * wrangler dev). Prints figures; it is a measurement, not a test.
 */
import { latencySection } from './bench/latency';
import { ledgerSection } from './bench/ledger';
import { queueSection } from './bench/queue';
import { sharingSection } from './bench/sharing';
import { searchSection } from './bench/search';
import { signingSection } from './bench/signing';
import { uploadsSection } from './bench/uploads';

const GOAL = { addedP50: 3, addedP99: 8, addedRatio: 1.2, verifyP50: 0.3, signingRatio: 2, reservationP50: 2, quoteP50: 2, uploadRiseMB: 25, uploadShareMB: 10, granteeP50: 1, keystrokeMs: 16, queueJain: 0.99, queueIdleP99OverIntervalMs: 500 };

const only = new Set(process.argv.slice(2));
const run = (name: string) => only.size === 0 || only.has(name);
if (run('signing')) await signingSection(GOAL.signingRatio);
if (run('latency')) await latencySection(GOAL);
else if (run('proxied')) await latencySection(GOAL, { creates: false });
if (run('uploads')) await uploadsSection(GOAL);
if (run('ledger')) await ledgerSection();
if (run('sharing')) await sharingSection(GOAL.granteeP50);
if (run('search')) searchSection(GOAL.keystrokeMs);
if (run('queue')) await queueSection(GOAL);
