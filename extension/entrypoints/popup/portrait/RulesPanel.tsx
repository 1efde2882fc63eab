import { useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { currentLocale, t } from '@/lib/i18n/translate';
import { rulesText } from '@/lib/portrait/portrait-rules';
import type { Problem } from '@/lib/proxy/failure-message';
import type { ConsentRecord } from '@/lib/storage/records/setting-values';
import '@/lib/i18n/portrait.en';

interface RulesPanelProps {
  busy: boolean;
  problem: Problem | undefined;
  consent: ConsentRecord | null;
  onAgree: (continuous: boolean) => void;
}

const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(currentLocale());
};

/** The rules first; the QR code only once the member ticked the agreement and the consent is recorded. */
export function RulesPanel({ busy, problem, consent, onAgree }: RulesPanelProps) {
  const [agreed, setAgreed] = useState(false);
  const [continuous, setContinuous] = useState(false);
  const rules = rulesText();
  return (
    <div class="portrait-rules" aria-busy={busy}>
      <p class="portrait-intro">{t('portrait.intro')}</p>
      {/* Scrolls when long: focusable so that it can be scrolled with the keyboard. */}
      <section class="portrait-rules__text" aria-labelledby="portrait-rules-heading" tabIndex={0}>
        <h3 id="portrait-rules-heading">{rules.heading}</h3>
        <ul>
          {rules.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p class="portrait-muted">{rules.version}</p>
      </section>
      {consent && <p class="portrait-muted">{t('portrait.lastConsent', { date: when(consent.acceptedAt), version: consent.rulesVersion })}</p>}
      {problem && (
        <Banner tone="error">
          <p>{t('portrait.consentFailed', { message: problem.message })}</p>
        </Banner>
      )}
      <div class="portrait-check">
        <input id="portrait-agree" type="checkbox" checked={agreed} disabled={busy} onChange={(e) => setAgreed(e.currentTarget.checked)} />
        <label for="portrait-agree">{t('portrait.agree')}</label>
      </div>
      <div class="portrait-check">
        <input id="portrait-continuous" type="checkbox" checked={continuous} disabled={busy} onChange={(e) => setContinuous(e.currentTarget.checked)} />
        <label for="portrait-continuous">{t('portrait.continuous')}</label>
      </div>
      <div class="actions">
        <button type="button" class="primary" disabled={!agreed || busy} aria-describedby={agreed ? undefined : 'portrait-start-hint'} onClick={() => onAgree(continuous)}>
          {t('portrait.start')}
        </button>
      </div>
      {!agreed && (
        <p id="portrait-start-hint" class="portrait-muted">
          {t('portrait.startHint')}
        </p>
      )}
      {busy && <p role="status">{t('portrait.consenting')}</p>}
    </div>
  );
}
