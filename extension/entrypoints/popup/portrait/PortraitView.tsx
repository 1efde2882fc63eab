import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { QrPanel } from '@/entrypoints/popup/portrait/QrPanel';
import { ResultPanel } from '@/entrypoints/popup/portrait/ResultPanel';
import { RulesPanel } from '@/entrypoints/popup/portrait/RulesPanel';
import { t } from '@/lib/i18n/translate';
import { defaultDeps, type FlowDeps, type FlowSnapshot, PortraitFlow } from '@/lib/portrait/portrait-flow';
import type { PortraitState } from '@/lib/portrait/portrait-transitions';
import '@/entrypoints/popup/portrait/portrait.css';
import { useFirstPaintMark } from '@/lib/popup/first-paint';
import '@/lib/i18n/portrait.en';

interface PortraitViewProps {
  /** Tests inject the clock (and may inject the client); the popup uses the real ones. */
  deps?: Partial<FlowDeps>;
  /** How often the countdown redraws. */
  tickMs?: number;
}

type Screen = 'rules' | 'code' | 'result' | 'error';

const screenOf = (state: PortraitState): Screen => {
  switch (state.kind) {
    case 'rules':
    case 'consenting':
      return 'rules';
    case 'creating':
    case 'showing':
    case 'expired':
      return 'code';
    case 'storing':
    case 'resolved':
      return 'result';
    case 'error':
      return 'error';
  }
};

const HEADINGS: Record<Screen, 'portrait.rules.heading' | 'portrait.qrHeading' | 'portrait.resolved' | 'portrait.heading'> = {
  rules: 'portrait.heading',
  code: 'portrait.qrHeading',
  result: 'portrait.resolved',
  error: 'portrait.heading',
};

/**
 * The Real person tab: the authorization and personal-information rules; once the member records
 * the consent, the QR code of a portrait session with its countdown while the person finishes on
 * their phone; then the new real-person group and its assets, stored in IndexedDB.
 */
export function PortraitView({ deps = {}, tickMs = 1000 }: PortraitViewProps) {
  const flow = useMemo(() => new PortraitFlow(deps), []);
  const [snapshot, setSnapshot] = useState<FlowSnapshot>(flow.snapshot);
  // First paint once a code left by an earlier popup was found (or not): no flash of the rules.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const stop = flow.subscribe(setSnapshot);
    void flow.start().finally(() => setReady(true));
    return () => {
      stop();
      flow.stop();
    };
  }, [flow]);

  const { state, consent } = snapshot;
  useFirstPaintMark(ready);
  const screen = screenOf(state);
  // A new screen: move focus to its heading (not on the first paint), so keyboard and screen
  // reader users land on what changed.
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<Screen | null>(null);
  useEffect(() => {
    if (!ready || shown.current === screen) return;
    if (shown.current) heading.current?.focus();
    shown.current = screen;
  }, [ready, screen]);
  const now = deps.now ?? defaultDeps.now;

  if (!ready) return <div class="portrait" aria-busy="true" />;

  return (
    <div class="portrait">
      <h2 ref={heading} tabIndex={-1}>
        {t(HEADINGS[screen])}
      </h2>
      {state.kind === 'rules' || state.kind === 'consenting' ? (
        <RulesPanel busy={state.kind === 'consenting'} problem={state.kind === 'rules' ? state.problem : undefined} consent={consent} onAgree={flow.agree} />
      ) : state.kind === 'creating' ? (
        <div>
          <p role="status" aria-busy="true">
            {t('portrait.creating')}
          </p>
          <div class="actions">
            <button type="button" onClick={flow.cancel}>
              {t('portrait.cancel')}
            </button>
          </div>
        </div>
      ) : state.kind === 'showing' ? (
        <QrPanel session={state.session} problem={state.problem} now={now} tickMs={tickMs} onCancel={flow.cancel} />
      ) : state.kind === 'expired' ? (
        <Outcome tone="warning" message={t('portrait.expired')} action={t('portrait.newCode')} onAction={flow.renew} leave={t('portrait.cancel')} onLeave={flow.cancel} />
      ) : state.kind === 'storing' ? (
        <p role="status" aria-busy="true">
          {t('portrait.storing')}
        </p>
      ) : state.kind === 'resolved' ? (
        <ResultPanel group={state.group} assets={state.assets} onDone={flow.done} />
      ) : (
        <Outcome
          tone="error"
          message={state.problem.message}
          action={t('portrait.retry')}
          onAction={flow.retry}
          leave={t(state.retry.kind === 'store' ? 'portrait.done' : 'portrait.cancel')}
          onLeave={flow.cancel}
        />
      )}
    </div>
  );
}

interface OutcomeProps {
  tone: 'warning' | 'error';
  message: string;
  /** The way on (a new code, a retry). */
  action: string;
  onAction: () => void;
  /** The way out. */
  leave: string;
  onLeave: () => void;
}

/** A code that ended without a group: what happened, the way on and the way out. */
function Outcome({ tone, message, action, onAction, leave, onLeave }: OutcomeProps) {
  return (
    <div>
      <Banner tone={tone}>
        <p>{message}</p>
      </Banner>
      <div class="actions">
        <button type="button" class="primary" onClick={onAction}>
          {action}
        </button>
        <button type="button" onClick={onLeave}>
          {leave}
        </button>
      </div>
    </div>
  );
}
