import type { WebhookFormat } from '../../../../shared';

/**
 * The body of a delivery by the webhook's `format`: `standard` is the event itself; a chat's
 * incoming webhook (Slack, Discord, Feishu) takes its own JSON, a line of text made here.
 */

type Data = Record<string, any>;

/** One line for a person, per event type. */
export function eventText(type: string, data: Data): string {
  const s = (value: unknown) => String(value ?? '').slice(0, 200);
  switch (type) {
    case 'task.completed':
      return `Arkbridge: video task ${s(data.id)} (${s(data.model)}) completed${data.arkbridge?.cost !== undefined ? `, cost ${s(data.arkbridge.cost)} ${s(data.arkbridge.currency)}` : ''}.`;
    case 'task.failed':
      return `Arkbridge: video task ${s(data.id)} (${s(data.model)}) failed${data.error?.message ? `: ${s(data.error.message)}` : ''}.`;
    case 'asset.active':
      return `Arkbridge: asset ${s(data.Name)} (${s(data.Id)}) is active in group ${s(data.GroupId)}.`;
    case 'asset.failed':
      return `Arkbridge: asset ${s(data.Name)} (${s(data.Id)}) failed${data.Error?.Message ? `: ${s(data.Error.Message)}` : ''}.`;
    case 'budget.alert': {
      const who = data.scope === 'team' ? "The team's budget" : `${s(data.member)}'s budget`;
      return `Arkbridge: ${who} has reached ${s(data.threshold)} % in ${s(data.periodKey)}: ${s(data.spent)} spent of ${s(data.limit)}.`;
    }
    default:
      return `Arkbridge: ${s(type)}.`;
  }
}

/** The body sent for the event `event` (its JSON text) to a webhook of `format`. */
export function deliveryBody(format: WebhookFormat, event: string): string {
  if (format === 'standard') return event;
  const parsed = JSON.parse(event) as { type: string; data: Data };
  const text = eventText(parsed.type, parsed.data);
  if (format === 'slack') return JSON.stringify({ text });
  if (format === 'discord') return JSON.stringify({ content: text });
  return JSON.stringify({ msg_type: 'text', content: { text } });
}
