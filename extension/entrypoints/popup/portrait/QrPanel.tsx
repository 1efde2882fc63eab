import { useEffect, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';
import { expiryAnnouncement, formatCountdown } from '@/lib/portrait/countdown';
import { AUTO_RENEWALS, type Session } from '@/lib/portrait/portrait-transitions';
import { qrDataUrl } from '@/lib/portrait/qr';
import type { Problem } from '@/lib/proxy/failure-message';
import '@/lib/i18n/portrait.en';

interface QrPanelProps {
  session: Session;
  problem: Problem | undefined;
  now: () => number;
  tickMs: number;
  onCancel: () => void;
}

/** Re-renders every `ms` (the countdown). */
function useTick(ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

/** The QR code for the person's phone, its link, the time left, and the state of the check. */
export function QrPanel({ session, problem, now, tickMs, onCancel }: QrPanelProps) {
  const [image, setImage] = useState<{ link: string; url: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useTick(tickMs);

  useEffect(() => {
    let alive = true;
    setCopied(null);
    qrDataUrl(session.h5Link).then(
      (url) => alive && setImage({ link: session.h5Link, url }),
      (error: unknown) => alive && setFailed(error instanceof Error ? error.message : String(error)),
    );
    return () => void (alive = false);
  }, [session.h5Link]);

  const left = session.expiresAt - now();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(session.h5Link);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };

  return (
    <div class="portrait-qr">
      <p>{t('portrait.scan')}</p>
      {session.renewals > 0 && (
        <Banner tone="info">
          <p>{t('portrait.renewed', { count: session.renewals + 1, max: AUTO_RENEWALS + 1 })}</p>
        </Banner>
      )}
      <div class="portrait-qr__code">
        {image?.link === session.h5Link ? (
          <img src={image.url} alt={t('portrait.qrAlt')} width={200} height={200} />
        ) : failed ? (
          <Banner tone="error">
            <p>{t('proxy.error.unexpected', { message: failed })}</p>
          </Banner>
        ) : (
          <p class="portrait-muted" aria-busy="true">
            {t('portrait.qrLoading')}
          </p>
        )}
      </div>
      <div class="field">
        <label class="field__label" for="portrait-link">
          {t('portrait.link')}
        </label>
        <div class="field__row">
          <input id="portrait-link" type="text" readOnly value={session.h5Link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            {t('portrait.copy')}
          </button>
        </div>
        {copied && (
          <p class="field__hint" role="status">
            {t(copied === 'yes' ? 'portrait.copied' : 'portrait.copyFailed')}
          </p>
        )}
      </div>
      <p class="portrait-countdown" role="timer">
        {t('portrait.expiresIn', { time: formatCountdown(left) })}
      </p>
      <p class="visually-hidden" aria-live="polite">
        {expiryAnnouncement(left)}
      </p>
      <p role="status" class="portrait-waiting">
        {t('portrait.waiting')}
      </p>
      {problem && (
        <Banner tone="warning">
          <p>{t('portrait.unsteady', { message: problem.message })}</p>
        </Banner>
      )}
      <div class="actions">
        <button type="button" onClick={onCancel}>
          {t('portrait.cancel')}
        </button>
      </div>
    </div>
  );
}
