import { describe, expect, it } from 'vitest';
import { sourceOf } from '@/lib/saving/capture-source';

/** The page title a capture keeps follows the proxy's label rule (shared/labels.ts), so the proxy stores what the extension shows. */

describe('sourceOf and the label rule', () => {
  it('cuts a long title at 300 characters as people see them, never half an emoji', () => {
    const title = sourceOf({ how: 'link' }, { title: '\u{1F98A}'.repeat(400) }, 1).pageTitle;
    expect(title).toBe('\u{1F98A}'.repeat(300));
  });

  it('keeps the title NFC and without controls or direction overrides', () => {
    expect(sourceOf({ how: 'link' }, { title: ' Cafe\u0301\u0000 \u202Emenu\u0007 ' }, 1).pageTitle).toBe('Caf\u00E9 menu');
  });
});
