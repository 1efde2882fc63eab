import { afterEach, describe, expect, it } from 'vitest';
import { findMediaElement } from '@/lib/capture/probe-element';

const SRC = 'https://cdn.example.com/fox-400.jpg';

function image(attributes: Record<string, string>): void {
  const img = document.createElement('img');
  for (const [name, value] of Object.entries(attributes)) img.setAttribute(name, value);
  document.body.append(img);
}

describe('findMediaElement', () => {
  afterEach(() => document.body.replaceChildren());

  it('reads the shown image’s srcset, alt and title', () => {
    image({ src: SRC, srcset: 'fox-400.jpg 400w, fox-1600.jpg 1600w', alt: 'A red fox', title: 'Fox' });
    expect(findMediaElement(SRC, 1000, 100)).toMatchObject({ tag: 'img', src: SRC, srcset: 'fox-400.jpg 400w, fox-1600.jpg 1600w', alt: 'A red fox', title: 'Fox' });
  });

  it('leaves out an over-long srcset and cuts alt and title, so the page cannot send unbounded text', () => {
    image({ src: SRC, srcset: `${'x'.repeat(1001)} 1x`, alt: 'a'.repeat(1_000_000), 'aria-label': 'b'.repeat(1_000_000) });
    const probed = findMediaElement(SRC, 1000, 100);
    expect(probed?.srcset).toBeUndefined();
    expect(probed?.alt).toBe('a'.repeat(100));
    expect(probed?.title).toBe('b'.repeat(100));
  });

  it('answers null when no media element shows the address', () => {
    image({ src: 'https://cdn.example.com/other.jpg' });
    expect(findMediaElement(SRC, 1000, 100)).toBeNull();
  });
});
