import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './lib/wrangler-dev';

/**
 * The proxy as `npm run deploy` bundles it: it builds, and stays small. zod (which hono-openapi
 * imports lazily for zod schemas, never used here) is aliased away in wrangler.jsonc; without the
 * alias the bundle doubles. The limit catches that kind of accident, not growth: wave 3's identity,
 * webhooks, sources and console pages took it from under 700 KiB to 710 KiB (727,231 bytes); wave 4's
 * member access keys (verifier, AES-GCM secrets), the gateway's queue and its console page to 827 KiB
 * (846,692 bytes), hence 1,000 (zod back would take it past 1,600).
 */
test('the proxy bundle builds without zod and stays under 1,000 KiB', { timeout: 120_000 }, () => {
  const out = mkdtempSync(join(tmpdir(), 'arkbridge-bundle-'));
  try {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '-c', 'worker/proxy/wrangler.jsonc', '--outdir', out], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const bundle = readFileSync(join(out, 'index.js'), 'utf8');
    expect(bundle).not.toMatch(/\$ZodType|ZodFirstPartyTypeKind/);
    // No import left for the runtime to resolve but its own (Miniflare refuses any other).
    const bare = [...bundle.matchAll(/(?:\bimport\(|\bfrom )"([\w@:/-][\w@:/.-]{0,99})"/g)].map((m) => m[1]).filter((name) => name !== 'cloudflare:workers' && !name!.startsWith('node:'));
    expect(bare).toEqual([]);
    expect(bundle.length).toBeLessThan(1000 * 1024);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
