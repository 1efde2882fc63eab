import { runInDurableObject } from 'cloudflare:test';
import { inject } from 'vitest';
import { ledgerObject, memberObject } from '../objects/handles';
import { proxyEnv } from './proxy-test-client';

/**
 * Steps of the webhook tests: a real receiver (test/support/webhook-receiver.ts) reached over a
 * socket, and the alarms of the objects that send (a member's, the ledger) run at once.
 */

export const receiverUrl = inject('webhookReceiverUrl');

export interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** A fresh inbox of the receiver: its URL, what it received, and the statuses its next POSTs get. */
export function inbox(name = `in-${crypto.randomUUID().slice(0, 8)}`) {
  return {
    url: `${receiverUrl}/in/${name}`,
    async received(): Promise<Received[]> {
      return ((await (await fetch(`${receiverUrl}/in/${name}`)).json()) as { received: Received[] }).received;
    },
    async answer(...statuses: number[]): Promise<void> {
      await fetch(`${receiverUrl}/script/${name}`, { method: 'PUT', body: JSON.stringify({ statuses }) });
    },
  };
}
export type Inbox = ReturnType<typeof inbox>;

/** Runs a member's alarm now with every outbox row due (as if its next attempt had come). */
export async function runMemberWebhooks(memberId: string): Promise<void> {
  await runInDurableObject(memberObject(proxyEnv, memberId), async (instance, state) => {
    state.storage.sql.exec('UPDATE webhook_outbox SET next_at = 1 WHERE next_at IS NOT NULL');
    await instance.alarm();
  });
}

/** Runs the ledger's alarm now with every outbox row of the team's webhook due. */
export async function runTeamWebhooks(): Promise<void> {
  await runInDurableObject(ledgerObject(proxyEnv), async (instance, state) => {
    state.storage.sql.exec('UPDATE webhook_outbox SET next_at = 1 WHERE next_at IS NOT NULL');
    await instance.alarm();
  });
}

/** Rows of an object's outbox. */
export const outboxRows = (memberId: string | null) =>
  runInDurableObject(memberId ? memberObject(proxyEnv, memberId) : ledgerObject(proxyEnv), (_i, state) =>
    state.storage.sql.exec('SELECT id, destination, type, state, attempts, next_at, source FROM webhook_outbox ORDER BY created_at').toArray() as any[]);
