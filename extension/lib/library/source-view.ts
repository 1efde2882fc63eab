import type { AssetSource } from '@/lib/storage/records/asset-source';

/**
 * How the asset's detail shows its source: the page's address is a link only when it is http(s)
 * (never `javascript:`, `data:` or an extension's page); its words are the title, else the address.
 */
export interface SourceLines {
  how: AssetSource['how'];
  capturedAt: number;
  page?: { text: string; href?: string };
}

/** Whether an address may be offered as a link to open. */
export function isWebAddress(address: string): boolean {
  try {
    const { protocol } = new URL(address);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function sourceLines(source: AssetSource): SourceLines {
  const lines: SourceLines = { how: source.how, capturedAt: source.capturedAt };
  const text = source.pageTitle || source.pageUrl;
  if (text) lines.page = { text, ...(source.pageUrl && isWebAddress(source.pageUrl) ? { href: source.pageUrl } : {}) };
  return lines;
}
