import type { ComponentChildren } from 'preact';
import '@/components/ui.css';

export type BannerTone = 'info' | 'success' | 'warning' | 'error';

interface BannerProps {
  tone: BannerTone;
  children: ComponentChildren;
  id?: string;
}

/** A message block: errors are alerts (announced at once), the rest polite status messages. */
export function Banner({ tone, children, id }: BannerProps) {
  return (
    <div id={id} class={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
