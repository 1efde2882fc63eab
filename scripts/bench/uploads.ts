/** Bench section 5: 50 MB uploads through the proxy against direct writes to the same local R2, and workerd's memory. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TEST_PROXY_SECRETS } from '../../test/support/sandbox';
import { AdminClient } from '../lib/admin-client';
import { ROOT } from '../lib/wrangler-dev';
import { serve, stats, verdict } from './measure';

/** Measured uploads of each kind (50 MB each). */
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 5);
/** MB here are 2^20 bytes, as in the proxy's limits: a video may be at most 50 MB (shared/media/media-kinds.ts). */
const MB = 1024 * 1024;
const UPLOAD_BYTES = 50 * MB;
/** Proxy uploads at once, after the others: memory grows by far less than 50 MB for each if the bodies stream. */
const CONCURRENT_UPLOADS = 3;

/** The workerd process under a serve process (Miniflare's child): found by walking /proc. */
function workerdUnder(parent: number): number {
  const children = new Map<number, { pid: number; comm: string }[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) }]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let queue = [parent]; queue.length; ) {
    const next: number[] = [];
    for (const pid of queue) for (const child of children.get(pid) ?? []) (child.comm === 'workerd' ? found : next).push(child.pid);
    queue = next;
  }
  if (found.length !== 1) throw new Error(`expected one workerd under process ${parent}, found ${found.length}`);
  return found[0]!;
}

/** Resident set size in bytes (VmRSS), sampled every 50 ms while `sampling`. */
function rssSampler(pid: number) {
  const read = () => {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (!match) throw new Error(`workerd (pid ${pid}) exited during the uploads`);
    return Number(match[1]) * 1024;
  };
  const samples: { t: number; rss: number }[] = [];
  let failure: unknown;
  const take = () => {
    try {
      samples.push({ t: performance.now(), rss: read() });
    } catch (error) {
      failure ??= error;
    }
  };
  const timer = setInterval(take, 50);
  take();
  return {
    read,
    /** The largest sample in [from, to], with one taken now (call it at `to`). */
    peak: (from: number, to = performance.now()) => (take(), Math.max(...samples.filter((s) => s.t >= from && s.t <= to + 1).map((s) => s.rss))),
    /** The median over the last `ms` (at rest: the baseline). */
    settled: async (ms: number) => {
      const from = performance.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return stats(samples.filter((s) => s.t >= from).map((s) => s.rss)).p50;
    },
    stop: () => {
      clearInterval(timer);
      if (failure) throw failure;
      const gaps = samples.slice(1).map((s, i) => s.t - samples[i]!.t);
      return { count: samples.length, maxGap: Math.max(...gaps) };
    },
  };
}

type Bytes = Uint8Array<ArrayBuffer>;
/** A video: the fixture's real MP4 bytes (an ftyp box first), repeated to 50 MB. */
const sampleMp4: Bytes = new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/media/sample.mp4')));
const video: Bytes = new Uint8Array(UPLOAD_BYTES);
for (let at = 0; at < video.length; at += sampleMp4.length) video.set(sampleMp4.subarray(0, Math.min(sampleMp4.length, video.length - at)), at);
const videoSha256 = createHash('sha256').update(video).digest('hex');
const UPLOAD_KINDS = {
  proxy: 'proxy POST /proxy/uploads',
  direct: 'direct R2 put(request.body)',
  fixed: 'direct, through a FixedLengthStream',
  transform: 'direct, through a JS TransformStream + FixedLengthStream',
} as const;
type UploadKind = keyof typeof UPLOAD_KINDS;

/**
 * The proxy in workerd with a bench-only Worker beside it (scripts/bench/r2-direct-worker.ts,
 * routed at /__bench/r2/*) bound to the same bucket: one workerd, one local R2 store (on disk in
 * the throw-away directory). `upload` sends a body, checks the answer (201, the size, for the
 * proxy the SHA-256), deletes the object again and returns the seconds until the answer.
 */
async function uploadServer() {
  // MEDIA_URL_SECRET set here too: without it the proxy's media store answers 503.
  const server = await serve('worker/proxy/wrangler.jsonc', { ...TEST_PROXY_SECRETS, MEDIA_URL_SECRET: 'bench-media-url-secret-0123456789abcdef' }, [
    { config: 'scripts/bench/r2-direct.jsonc', routes: ['*/__bench/r2/*'] },
  ]);
  try {
    const pid = workerdUnder(server.pid);
    const member = await new AdminClient(server.url, TEST_PROXY_SECRETS.ADMIN_TOKEN).add('bench-uploads');
    const auth = { Authorization: `Bearer ${member.token}` };
    const headers = { 'Content-Type': 'video/mp4' };
    const via: Record<Exclude<UploadKind, 'proxy'>, string> = { direct: 'body', fixed: 'fixed', transform: 'transform' };
    let serial = 0;
    const upload = async (kind: UploadKind, body: Bytes) => {
      const key = `${via[kind as Exclude<UploadKind, 'proxy'>]}-${serial++}.mp4`;
      const t = performance.now();
      const response =
        kind === 'proxy'
          ? await fetch(`${server.url}/proxy/uploads?name=bench.mp4`, { method: 'POST', headers: { ...auth, ...headers }, body })
          : await fetch(`${server.url}/__bench/r2/${key}?via=${via[kind]}`, { method: 'PUT', headers, body });
      const text = await response.text();
      const seconds = (performance.now() - t) / 1000;
      const answer = (response.status === 201 ? JSON.parse(text) : {}) as { id?: string; size?: number; sha256?: string };
      if (response.status !== 201 || answer.size !== body.length) throw new Error(`${UPLOAD_KINDS[kind]}: HTTP ${response.status} ${text.slice(0, 300)}`);
      if (kind === 'proxy' && body === video && answer.sha256 !== videoSha256) throw new Error(`proxy upload: sha256 ${answer.sha256}, expected ${videoSha256}`);
      const removed =
        kind === 'proxy'
          ? await fetch(`${server.url}/proxy/uploads/${encodeURIComponent(answer.id!)}`, { method: 'DELETE', headers: auth })
          : await fetch(`${server.url}/__bench/r2/${key}`, { method: 'DELETE' });
      if (removed.status !== 204) throw new Error(`${UPLOAD_KINDS[kind]}: delete answered ${removed.status}`);
      return seconds;
    };
    // Every path once with the small fixture itself, so that each isolate and the R2 store are
    // loaded before any baseline: a rise is then what 50 MB bodies cost, not start-up.
    for (const kind of Object.keys(UPLOAD_KINDS) as UploadKind[]) await upload(kind, sampleMp4);
    return { ...server, pid, upload };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Resident memory of a fresh workerd at rest (the baseline), then its peak during its first 50 MB upload, of `kind`. */
async function firstUpload(server: Awaited<ReturnType<typeof uploadServer>>, rss: ReturnType<typeof rssSampler>, kind: UploadKind) {
  const baseline = await rss.settled(1000);
  const from = performance.now();
  const seconds = await server.upload(kind, video);
  return { baseline, peak: rss.peak(from), seconds };
}

/**
 * Uploads: throughput, interleaved, in one workerd; memory, which in one process depends on what
 * ran before (memory freed stays resident and is used again), so each first 50 MB upload is
 * measured in a fresh workerd: the direct write's in a workerd of its own, stopped before the
 * proxy's starts. Then several proxy uploads at once: a proxy holding bodies would need 50 MB
 * more for each.
 */
async function uploads() {
  const started = performance.now();
  const fresh = await uploadServer();
  let direct;
  try {
    const rss = rssSampler(fresh.pid);
    direct = await firstUpload(fresh, rss, 'direct');
    rss.stop();
  } finally {
    await fresh.stop();
  }

  const server = await uploadServer();
  try {
    const rss = rssSampler(server.pid);
    const proxy = await firstUpload(server, rss, 'proxy');
    const kinds = Object.keys(UPLOAD_KINDS) as UploadKind[];
    for (const kind of kinds) if (kind !== 'proxy') await server.upload(kind, video); // warm-up
    const seconds = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<UploadKind, number[]>;
    const before = rss.read();
    const from = performance.now();
    for (let i = 0; i < UPLOADS; i++) {
      for (let j = 0; j < kinds.length; j++) {
        const kind = kinds[(i + j) % kinds.length]!;
        seconds[kind].push(await server.upload(kind, video));
      }
    }
    const steady = { before, peak: rss.peak(from) };
    const atOnce = { before: await rss.settled(300), peak: 0, seconds: 0 };
    const t = performance.now();
    await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, () => server.upload('proxy', video)));
    atOnce.seconds = (performance.now() - t) / 1000;
    atOnce.peak = rss.peak(t);
    const after = await rss.settled(300);
    const sampling = rss.stop();
    return {
      mbps: Object.fromEntries(kinds.map((k) => [k, seconds[k].map((s) => UPLOAD_BYTES / MB / s)])) as Record<UploadKind, number[]>,
      direct,
      proxy,
      steady,
      atOnce,
      after,
      sampling,
      elapsed: (performance.now() - started) / 1000,
    };
  } finally {
    await server.stop();
  }
}

/** Runs the section and prints its tables against the goals (MB). */
export async function uploadsSection(GOAL: { uploadRiseMB: number; uploadShareMB: number }) {
  console.log(`\nUploads of a 50 MB video (MB = 2^20 bytes; the fixture's MP4 repeated), ${UPLOADS} each, interleaved, in one workerd (the proxy and a bench Worker writing to the same local R2 bucket):`);
  const up = await uploads();
  const median = (values: number[]) => stats(values).p50;
  const mbps = (v: number) => `${v.toFixed(1)} MB/s`;
  const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
  console.table(
    Object.fromEntries(
      (Object.keys(UPLOAD_KINDS) as UploadKind[]).map((k) => [
        UPLOAD_KINDS[k],
        { median: mbps(median(up.mbps[k])), min: mbps(Math.min(...up.mbps[k])), max: mbps(Math.max(...up.mbps[k])), 'vs direct': `${(median(up.mbps[k]) / median(up.mbps.direct)).toFixed(2)}x` },
      ]),
    ),
  );
  const uploadRatio = median(up.mbps.direct) / median(up.mbps.proxy);
  console.log(`Proxy ${mbps(median(up.mbps.proxy))} against ${mbps(median(up.mbps.direct))} writing to R2 directly: the direct write is ${uploadRatio.toFixed(2)}x as fast (medians).`);
  console.log(
    `\nResident memory (VmRSS) of workerd, every 50 ms (${up.sampling.count} samples in the proxy's workerd, at most ${up.sampling.maxGap.toFixed(0)} ms apart). ` +
      `One workerd runs the Worker, the bench Worker and Miniflare's local R2 (itself JS in the same process):`,
  );
  const rise = (m: { baseline: number; peak: number }) => m.peak - m.baseline;
  console.table({
    'first 50 MB upload through the proxy (fresh workerd)': { before: mb(up.proxy.baseline), peak: mb(up.proxy.peak), rise: mb(rise(up.proxy)) },
    'first 50 MB direct R2 put (another fresh workerd)': { before: mb(up.direct.baseline), peak: mb(up.direct.peak), rise: mb(rise(up.direct)) },
    [`then ${UPLOADS} rounds of all four, interleaved`]: { before: mb(up.steady.before), peak: mb(up.steady.peak), rise: mb(up.steady.peak - up.steady.before) },
    [`then ${CONCURRENT_UPLOADS} proxy uploads at once (${CONCURRENT_UPLOADS * 50} MB in flight, ${up.atOnce.seconds.toFixed(1)} s)`]: {
      before: mb(up.atOnce.before),
      peak: mb(up.atOnce.peak),
      rise: mb(up.atOnce.peak - up.atOnce.before),
    },
  });
  console.log(`At rest afterwards: ${mb(up.after)}. Section: ${up.elapsed.toFixed(0)} s.`);
  const firstRise = rise(up.proxy) / MB;
  const perExtra = (up.atOnce.peak - up.atOnce.before) / MB / (CONCURRENT_UPLOADS - 1);
  // Locally, Miniflare's R2 runs inside the same workerd and costs its own memory (the direct write
  // shows how much); on Cloudflare, R2 is outside the Worker. So the proxy is judged by its share.
  const share = firstRise - rise(up.direct) / MB;
  console.log(
    `Goal: the proxy's share of the first 50 MB upload (its rise − the direct R2 write's) < ${GOAL.uploadShareMB} MB: ${share.toFixed(1)} MB ${verdict(share < GOAL.uploadShareMB)} ` +
      `(raw rise ${firstRise.toFixed(1)} MB, of which the local R2 ${(rise(up.direct) / MB).toFixed(1)} MB; raw < ${GOAL.uploadRiseMB} MB: ${verdict(firstRise < GOAL.uploadRiseMB)}).`,
  );
  console.log(
    `Streaming: each upload in flight beyond the first adds ${perExtra.toFixed(1)} MB (a proxy holding its bodies would add ≥ 50): < ${GOAL.uploadRiseMB} MB ${verdict(perExtra < GOAL.uploadRiseMB)}.`,
  );

}
