import { en, type MessageKey } from './en';
import { zhCN } from './zh-CN';

export type { MessageKey };
export type Locale = 'en' | 'zh-CN';

const TABLES: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** The popup's language: Simplified Chinese for any `zh` browser language except Traditional, else English. */
export function pickLocale(language: string | undefined): Locale {
  const lang = (language ?? '').toLowerCase();
  return lang.startsWith('zh') && !/^zh-(tw|hk|mo|hant)/.test(lang) ? 'zh-CN' : 'en';
}

let locale: Locale = pickLocale(typeof navigator === 'undefined' ? undefined : navigator.language);

export const currentLocale = (): Locale => locale;
export const setLocale = (next: Locale): void => void (locale = next);

/** The string for `key` in the current language, with `{param}`s filled in. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = TABLES[locale][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
