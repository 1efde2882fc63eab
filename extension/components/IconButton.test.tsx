import { describe, expect, it, vi } from 'vitest';
import { click, mount, unmount } from '@/components/dom-testing';
import { IconButton, type IconName } from '@/components/IconButton';

const ICONS: IconName[] = ['up', 'down', 'duplicate', 'retry', 'delete'];

describe('IconButton', () => {
  it('is named for screen readers and pointers alike, and draws its icon instead of a font glyph', () => {
    const pressed = vi.fn();
    mount(
      <div>
        {ICONS.map((icon) => (
          <IconButton key={icon} icon={icon} label={`Do ${icon}`} onClick={() => pressed(icon)} />
        ))}
      </div>,
    );
    const buttons = [...document.querySelectorAll('button')];
    expect(buttons.map((b) => [b.getAttribute('aria-label'), b.getAttribute('title')])).toEqual(ICONS.map((icon) => [`Do ${icon}`, `Do ${icon}`]));
    for (const b of buttons) {
      // No text to fall back to a missing glyph: the icon is an SVG path, hidden from screen readers.
      expect(b.textContent).toBe('');
      expect(b.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
      expect(b.querySelector('svg path')?.getAttribute('d')).toMatch(/^M/);
    }
    click(buttons[2]!);
    expect(pressed).toHaveBeenCalledWith('duplicate');
    unmount();
  });
});
