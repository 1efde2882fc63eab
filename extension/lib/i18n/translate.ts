import type { MessageKey } from '@/lib/i18n/en';
import { english } from '@/lib/i18n/english-parts';

export type { MessageKey };
export type Locale = 'en' | 'zh-CN';

type Table = Record<MessageKey, string>;

/** English (the fallback) is the parts this context imported (english-parts); other languages are whole chunks loaded on first use. */
const TABLES: Partial<Record<Locale, Partial<Table>>> = { en: english };
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Table>> = { 'zh-CN': async () => (await import('@/lib/i18n/zh-CN')).zhCN };

/** The popup's language: Simplified Chinese for any `zh` browser language except Traditional, else English. */
export function pickLocale(language: string | undefined): Locale {
  const lang = (language ?? '').toLowerCase();
  return lang.startsWith('zh') && !/^zh-(tw|hk|mo|hant)/.test(lang) ? 'zh-CN' : 'en';
}

let locale: Locale = 'en';

export const currentLocale = (): Locale => locale;

/** Loads the strings of `next` if needed and makes it the current language. */
export async function setLocale(next: Locale): Promise<void> {
  if (next !== 'en') TABLES[next] ??= await LOADERS[next]();
  locale = next;
}

/**
 * Makes a language's strings available up front, for a context that cannot wait for a chunk (the
 * background's event handlers), and makes the browser's language current when it is that one.
 */
export function provideLocale(next: Exclude<Locale, 'en'>, table: Table): void {
  TABLES[next] = table;
  if (pickLocale(typeof navigator === 'undefined' ? undefined : navigator.language) === next) locale = next;
}

/** The browser's language, loaded: awaited before a page's first render. English if loading fails. */
export async function loadBrowserLocale(): Promise<void> {
  await setLocale(pickLocale(typeof navigator === 'undefined' ? undefined : navigator.language)).catch(() => setLocale('en'));
}

const PLURAL = /\{(\w+), plural, ((?:=?\w+ \{[^{}]*\} ?)+)\}/g;
/**
 * One form of the cases PLURAL matched, each right after the last (sticky): unanchored, `\w+`
 * would restart at every letter of a long word and be quadratic.
 */
const FORM = /(=?\w+) \{([^{}]*)\} ?/gy;

/** ICU's plural form, the subset we use: `{count, plural, one {# asset} other {# assets}}`. */
function plurals(template: string, params: Record<string, string | number>): string {
  return template.replace(PLURAL, (whole, name: string, cases: string) => {
    const value = params[name];
    if (typeof value !== 'number') return whole;
    const forms = new Map([...cases.matchAll(FORM)].map((m) => [m[1]!, m[2]!]));
    const form = forms.get(`=${value}`) ?? forms.get(new Intl.PluralRules(locale).select(value)) ?? forms.get('other') ?? '';
    return form.replace(/#/g, String(value));
  });
}

/** The string for `key` in the current language, with plural forms chosen and `{param}`s filled in. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  // A key no table has shows as itself (page-strings.test keeps that from shipping).
  const template = plurals(TABLES[locale]?.[key] ?? TABLES.en?.[key] ?? key, params);
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
