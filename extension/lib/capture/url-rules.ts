import { mediaUrlProblem } from '@@/shared';
import { t } from '@/lib/i18n/translate';
import '@/lib/i18n/background.en';

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string; advice: string };

/** Schemes with their own explanation (message keys `capture.url.<scheme>` and `…Advice`). */
const EXPLAINED = ['blob', 'data', 'file', 'http'] as const;

const refusal = (reason: string, advice: string): UrlVerdict => ({ ok: false, reason, advice });

/**
 * Whether a right-clicked media address can be sent to the library, and if not, why and what to
 * do instead. `allowHttp` mirrors the proxy's ALLOW_HTTP_MEDIA (local development).
 */
export function checkMediaUrl(raw: string | undefined, allowHttp = false): UrlVerdict {
  if (!raw) return refusal(t('capture.url.missing'), t('capture.url.missingAdvice'));
  let scheme: string;
  try {
    scheme = new URL(raw).protocol;
  } catch {
    return refusal(t('capture.url.invalid'), t('capture.url.invalidAdvice'));
  }
  if (scheme === 'http:' && allowHttp) return verdictFor(raw, true);
  const explained = EXPLAINED.find((name) => `${name}:` === scheme);
  if (explained) return refusal(t(`capture.url.${explained}`), t(`capture.url.${explained}Advice`));
  if (scheme !== 'https:') return refusal(t('capture.url.scheme', { scheme }), t('capture.url.schemeAdvice'));
  return verdictFor(raw, allowHttp);
}

function verdictFor(url: string, allowHttp: boolean): UrlVerdict {
  const problem = mediaUrlProblem(url, { allowHttp });
  return problem
    ? refusal(t('capture.url.problem', { problem }), t('capture.url.problemAdvice'))
    : { ok: true, url };
}
