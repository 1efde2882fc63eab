/**
 * Vitest globalSetup: starts a real sandbox (wrangler dev, throw-away state) for the proxy's
 * integration tests, which reach it over HTTP as the deployed proxy reaches the service.
 */
import type { TestProject } from 'vitest/node';
import { startSandbox } from './sandbox';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const sandbox = await startSandbox({ SANDBOX_PORTRAIT_SECONDS: '300' }, { label: 'proxy-tests-sandbox' });
  provide('sandboxUrl', sandbox.url);
  return () => sandbox.stop();
}
