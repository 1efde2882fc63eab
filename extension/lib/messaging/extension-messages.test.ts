import { describe, expect, it } from 'vitest';
import { isExtensionMessage } from '@/lib/messaging/extension-messages';

describe('extension messages', () => {
  it('accepts the known messages and a well-formed add', () => {
    for (const type of ['arkbridge:connected', 'arkbridge:disconnected', 'arkbridge:groups-changed', 'arkbridge:sync']) {
      expect(isExtensionMessage({ type })).toBe(true);
    }
    expect(isExtensionMessage({ type: 'arkbridge:add', item: { groupId: 'g', url: 'https://x/a.png', name: 'a', type: 'Image' } })).toBe(true);
  });

  it('refuses anything else', () => {
    expect(isExtensionMessage(null)).toBe(false);
    expect(isExtensionMessage({ type: 'other' })).toBe(false);
    expect(isExtensionMessage({ type: 'arkbridge:add' })).toBe(false);
    expect(isExtensionMessage({ type: 'arkbridge:add', item: { groupId: 'g', url: 'u', name: 'a', type: 'Document' } })).toBe(false);
  });
});
