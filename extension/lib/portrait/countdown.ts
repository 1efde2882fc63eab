import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/portrait.en';

/** Whole seconds left (rounded up), never negative. */
export const secondsLeft = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/** `mm:ss` of the time left before the code expires. */
export function formatCountdown(ms: number): string {
  const s = secondsLeft(ms);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * What a screen reader hears about the expiry: changes once a minute, then at 30 and 10 seconds,
 * rather than every second like the visible countdown.
 */
export function expiryAnnouncement(ms: number): string {
  const s = secondsLeft(ms);
  if (s > 60) return t('portrait.expiresSoon', { minutes: Math.ceil(s / 60) });
  if (s > 30) return t('portrait.expiresSoon', { minutes: 1 });
  return t('portrait.expiresSeconds', { seconds: s > 10 ? 30 : 10 });
}
