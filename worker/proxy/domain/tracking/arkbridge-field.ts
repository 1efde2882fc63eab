import type { ArkbridgeField } from '../../../../shared';

/**
 * What the proxy adds to a task answer: one top-level `arkbridge` member (the shared
 * `arkbridgeFieldSchema`), appended to the service's JSON text. Everything the service sent stays
 * byte for byte as sent.
 */
export type { ArkbridgeField };

/** The service's JSON object with `"arkbridge": {...}` added last; text that is not an object is returned unchanged. */
export function withArkbridge(serviceJson: string, field: ArkbridgeField): string {
  let end = serviceJson.length;
  while (end > 0 && ' \t\r\n'.includes(serviceJson[end - 1]!)) end--;
  if (serviceJson[end - 1] !== '}') return serviceJson;
  const start = serviceJson.search(/\S/);
  if (serviceJson[start] !== '{') return serviceJson;
  const empty = serviceJson.slice(start + 1, end - 1).trim() === '';
  return `${serviceJson.slice(0, end - 1)}${empty ? '' : ','}"arkbridge":${JSON.stringify(field)}}`;
}
