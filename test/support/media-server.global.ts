/**
 * Vitest globalSetup: starts the media fixture server once per run and hands its base URL to
 * tests as `inject('mediaBaseUrl')` (typed in provided-context.d.ts). Works for Node tests and for
 * tests inside workerd (@cloudflare/vitest-pool-workers), which fetch http://127.0.0.1:<port>/...
 */
import type { TestProject } from 'vitest/node';
import { startMediaServer } from './media-server';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startMediaServer();
  provide('mediaBaseUrl', server.url);
  return () => server.close();
}
