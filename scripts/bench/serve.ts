/**
 * Bench only: runs one Worker in workerd as deployed code runs, with nothing in front of it.
 * `wrangler dev` puts a proxy Worker of its own (a second workerd) before the Worker and attaches
 * a debugger that relays every log line and subrequest to Node: costs of the dev tool, not of the
 * Worker (the bench measures them apart). Here: the production bundle (`wrangler deploy
 * --dry-run`) in Miniflare, with the bindings of the Worker's wrangler.jsonc. The Worker still
 * writes its logs; they are read and dropped here rather than passed on to the bench, whose
 * timing they would disturb.
 * `alongside`: bench-only Workers run in the same workerd (scripts/bench/r2-direct.jsonc), reached
 * through their `routes` (Miniflare's router, as every request to the Worker goes through it); a
 * binding to an R2 bucket of the same name is the same local bucket, stored on disk under `dir`.
 * Reads `{ config, port, dir, vars, alongside? }` as JSON on stdin; prints `ready <url>`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import { ROOT } from '../lib/wrangler-dev';

interface Input {
  /** wrangler.jsonc, relative to the project root. */
  config: string;
  port: number;
  /** A throw-away directory: the bundle and the Durable Objects' storage. */
  dir: string;
  /** Configuration and secrets, over the config's vars. */
  vars: Record<string, string>;
  /** More Workers in the same workerd, each with the routes that reach it (e.g. `*\/__bench/r2/*`). */
  alongside?: { config: string; routes: string[] }[];
}

const input = JSON.parse(
  await new Promise<string>((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
  }),
) as Input;

/** The production bundle of a config (`wrangler deploy --dry-run`) as Miniflare worker options, with its bindings. */
function worker(config: string, outdir: string, vars: Record<string, string> = {}) {
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '-c', config, '--outdir', outdir], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`bundling ${config} failed:\n${build.stdout}\n${build.stderr}`);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, config));
  return {
    ...(workerOptions as object),
    // Named as in its config, so that a Worker alongside can bind to its Durable Object classes (`script_name`).
    name: unstable_readConfig({ config: join(ROOT, config) }).name,
    modules: true as const,
    scriptPath: join(outdir, readdirSync(outdir).find((f) => f.endsWith('.js'))!), // named after the config's main
    modulesRoot: outdir,
    bindings: { ...workerOptions.bindings, ...vars },
    // Miniflare routes every subrequest through a Worker of its own that strips CF-Connecting-IP
    // (about 0.3 ms a call here); the production runtime does that natively.
    stripCfConnectingIp: false,
  };
}

const main = worker(input.config, join(input.dir, 'bundle'), input.vars);
const alongside = (input.alongside ?? []).map(({ config, routes }, i) => ({ ...worker(config, join(input.dir, `bundle-${i}`)), name: `bench-alongside-${i}`, routes }));
const mf = new Miniflare({
  workers: [main, ...alongside],
  durableObjectsPersist: join(input.dir, 'state'),
  r2Persist: join(input.dir, 'r2'),
  handleRuntimeStdio(stdout, stderr) {
    stdout.resume();
    stderr.pipe(process.stderr);
  },
  host: '127.0.0.1',
  port: input.port,
});
console.log(`ready ${(await mf.ready).origin}`);
const stop = () => void mf.dispose().finally(() => process.exit(0));
process.once('SIGTERM', stop).once('SIGINT', stop);
