import { type MessageKey, t } from '@/lib/i18n/translate';
import '@/lib/i18n/portrait.en';

/**
 * The real-person authorization and personal-information rules the member shows the person before
 * any QR code exists. `RULES_VERSION` is what `POST /proxy/consents` records: change it whenever
 * the wording below changes in substance, so that each consent on record names the rules it covers.
 */
export const RULES_VERSION = '2026-11-22';

/** One paragraph each: what is captured, how it is used, the phone, the account, deletion. */
export const RULE_KEYS = [
  'portrait.rules.captured',
  'portrait.rules.use',
  'portrait.rules.phone',
  'portrait.rules.account',
  'portrait.rules.delete',
] as const satisfies readonly MessageKey[];

/** The rules in the popup's language. */
export function rulesText(): { heading: string; items: string[]; version: string } {
  return {
    heading: t('portrait.rules.heading'),
    items: RULE_KEYS.map((key) => t(key)),
    version: t('portrait.rules.version', { version: RULES_VERSION }),
  };
}
