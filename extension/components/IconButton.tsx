import type { JSX } from 'preact';

/**
 * Icons drawn inline (24-unit paths, stroked in the text colour): a font glyph such as ⧉ is missing
 * from some browsers' default fonts and shows as an empty box.
 */
const PATHS = {
  up: 'M12 19V5M5 12l7-7 7 7',
  down: 'M12 5v14M5 12l7 7 7-7',
  duplicate: 'M9 9h11v11H9zM5 15H4V4h11v1',
  retry: 'M20 12a8 8 0 1 1-2.34-5.66M20 4v5h-5',
  delete: 'M6 6l12 12M18 6L6 18',
} as const;

export type IconName = keyof typeof PATHS;

type IconButtonProps = Omit<JSX.ButtonHTMLAttributes<HTMLButtonElement>, 'label' | 'icon'> & {
  icon: IconName;
  /** What the button does: its accessible name and its tooltip. */
  label: string;
};

/** A button shown as an icon, named for screen readers (aria-label) and pointers (title) alike. */
export function IconButton({ icon, label, class: className, ...rest }: IconButtonProps) {
  return (
    <button type="button" {...rest} class={className ? `icon-button ${className}` : 'icon-button'} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path d={PATHS[icon]} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </button>
  );
}
