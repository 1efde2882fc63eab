/**
 * Vitest globalSetup: starts the webhook receiver (webhook-receiver.ts) once per run and hands its
 * base URL to tests as `inject('webhookReceiverUrl')`; tests inside workerd reach it over a real socket.
 */
import type { TestProject } from 'vitest/node';
import { startWebhookReceiver } from './webhook-receiver';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const receiver = await startWebhookReceiver();
  provide('webhookReceiverUrl', receiver.url);
  return () => receiver.close();
}
