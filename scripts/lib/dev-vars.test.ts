/** `npm run proxy` (and `npm start`) pass the proxy every configuration name, from the environment else .dev.vars. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ensureDevVars, featuresOff, parseDevVars, PROXY_CONFIG, PROXY_REQUIRED, proxyConfig } from './dev-vars';
import { ROOT } from './wrangler-dev';

describe('featuresOff', () => {
  test('MEDIA_URL_SECRET is optional: without it the proxy starts and says the media store is off', () => {
    expect(PROXY_REQUIRED).not.toContain('MEDIA_URL_SECRET');
    expect(featuresOff({ ADMIN_TOKEN: 'x', ACCESS_KEY_SECRET: 'k'.repeat(32) })).toEqual([expect.stringContaining('The media store is off: MEDIA_URL_SECRET is not set')]);
    expect(featuresOff({ MEDIA_URL_SECRET: 'secret', ACCESS_KEY_SECRET: 'k'.repeat(32) })).toEqual([]);
  });

  test('ACCESS_KEY_SECRET is optional: without it, or shorter than 32 characters, member access keys are off', () => {
    expect(PROXY_REQUIRED).not.toContain('ACCESS_KEY_SECRET');
    expect(PROXY_CONFIG).toContain('ACCESS_KEY_SECRET');
    for (const value of [undefined, 'k'.repeat(31)]) {
      expect(featuresOff({ MEDIA_URL_SECRET: 'secret', ...(value ? { ACCESS_KEY_SECRET: value } : {}) })).toEqual([expect.stringContaining('Member access keys are off: ACCESS_KEY_SECRET')]);
    }
  });
});

describe('proxyConfig', () => {
  test('passes UPSTREAM_TIMEOUT_MS through from the environment', () => {
    expect(proxyConfig({ UPSTREAM_TIMEOUT_MS: '1500' }, {})).toEqual({ UPSTREAM_TIMEOUT_MS: '1500' });
  });

  test('passes UPSTREAM_TIMEOUT_MS through from .dev.vars when the environment has none', () => {
    expect(proxyConfig({}, parseDevVars('UPSTREAM_TIMEOUT_MS=2500\n')).UPSTREAM_TIMEOUT_MS).toBe('2500');
  });

  test('takes every name, the environment winning over .dev.vars; other variables stay out', () => {
    const env = Object.fromEntries(PROXY_CONFIG.map((name) => [name, `env-${name}`]));
    const file = Object.fromEntries(PROXY_CONFIG.map((name) => [name, `file-${name}`]));
    expect(proxyConfig({ ...env, PATH: '/usr/bin', SANDBOX_PORT: '1' }, file)).toEqual(env);
    expect(proxyConfig({}, { ...file, OTHER: 'x' })).toEqual(file);
  });

  test('lists the future settings, harmless to pass now', () => {
    for (const name of ['UPSTREAM_TIMEOUT_MS', 'TRACK_INTERVAL_SECONDS', 'ALERT_WEBHOOK_URL', 'MEDIA_URL_SECRET', 'MEDIA_URL_TTL_SECONDS',
      'KEEP_OUTPUTS_DAYS', 'ACCESS_TEAM_DOMAIN', 'ACCESS_AUD', 'ADMIN_TOKEN_SIGNIN']) {
      expect(PROXY_CONFIG).toContain(name);
    }
    expect(PROXY_CONFIG.filter((name) => !PROXY_REQUIRED.includes(name))).toContain('UPSTREAM_TIMEOUT_MS');
  });

  test('covers every string setting the proxy reads (worker/proxy/infra/settings/proxy-settings.ts)', () => {
    const source = readFileSync(join(ROOT, 'worker', 'proxy', 'infra', 'settings', 'proxy-settings.ts'), 'utf8');
    const body = /export interface ProxySettings \{([\s\S]*?)\n\}/.exec(source)?.[1];
    expect(body).toBeDefined();
    const settings = [...body!.matchAll(/^\s+([A-Z][A-Z0-9_]*)\??:\s*string;/gm)].map((m) => m[1]);
    expect(settings).toContain('UPSTREAM_TIMEOUT_MS');
    expect(PROXY_CONFIG).toEqual(expect.arrayContaining(settings));
  });
});

describe('ensureDevVars', () => {
  test('creates the file with fresh secrets, then adds only what a file of an earlier version lacks', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arkbridge-devvars-'));
    try {
      const path = join(dir, '.dev.vars');
      expect(ensureDevVars('http://127.0.0.1:8788', path)).toEqual({ created: true, added: ['ADMIN_TOKEN', 'MEDIA_URL_SECRET', 'ACCESS_KEY_SECRET'] });
      const first = parseDevVars(readFileSync(path, 'utf8'));
      expect(first.MEDIA_URL_SECRET).toMatch(/^[\w-]{43}$/);
      expect(first.ACCESS_KEY_SECRET).toMatch(/^[\w-]{43}$/);
      expect(ensureDevVars('http://127.0.0.1:8788', path)).toBeNull();
      writeFileSync(path, 'ADMIN_TOKEN=kept');
      expect(ensureDevVars('http://127.0.0.1:8788', path)).toEqual({ created: false, added: ['MEDIA_URL_SECRET', 'ACCESS_KEY_SECRET'] });
      const upgraded = parseDevVars(readFileSync(path, 'utf8'));
      expect(upgraded.ADMIN_TOKEN).toBe('kept');
      expect(upgraded.MEDIA_URL_SECRET).toMatch(/^[\w-]{43}$/);
      expect(upgraded.ACCESS_KEY_SECRET).toMatch(/^[\w-]{43}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
