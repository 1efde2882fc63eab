import { LIMITS } from '@@/shared';
import { NAME_TEXT_MAX } from '@/lib/capture/choose-name';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/snapshot.en';

/**
 * Names of screenshots and frames: "Screenshot of <page title> 2026-11-23 18:40", "Frame of
 * <video name or page title> at 0:12", within the library's name limit (the title gives way, the
 * time stays).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-23 18:40`, in the member's local time. */
export const formatClock = (date: Date): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** A position in a video: `0:12`, `12:05`, `1:02:03` (whole seconds; anything not a time reads `0:00`). */
export function formatMediaTime(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Page-supplied text, bounded and on one line. */
const clean = (text: string | undefined) => (text ?? '').slice(0, NAME_TEXT_MAX).replace(/\s+/g, ' ').trim();

/** `template` filled with `subject` shortened (…) so that the whole name fits the library's limit. */
function fitted(build: (subject: string) => string, subject: string): string {
  const whole = build(subject);
  if (whole.length <= LIMITS.assetNameMax) return whole;
  const room = Math.max(1, subject.length - (whole.length - LIMITS.assetNameMax) - 1);
  return build(`${subject.slice(0, room)}…`);
}

/** "Screenshot of <page title> 2026-11-23 18:40". */
export const screenshotName = (pageTitle: string | undefined, at: Date): string =>
  fitted((title) => t('snapshot.name.screenshot', { title, time: formatClock(at) }), clean(pageTitle) || t('snapshot.name.untitled'));

/** "Frame of <video name, else page title> at 0:12". */
export const frameName = (videoName: string | undefined, pageTitle: string | undefined, seconds: number): string =>
  fitted((name) => t('snapshot.name.frame', { name, time: formatMediaTime(seconds) }), clean(videoName) || clean(pageTitle) || t('snapshot.name.untitled'));
