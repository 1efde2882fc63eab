import { afterEach, describe, expect, it } from 'vitest';
import { en } from '@/lib/i18n/en';
import { currentLocale, loadBrowserLocale, pickLocale, setLocale, t } from '@/lib/i18n/translate';
import { zhCN } from '@/lib/i18n/zh-CN';

afterEach(() => setLocale('en'));

describe('popup strings', () => {
  it('picks Simplified Chinese for zh browsers, English otherwise', () => {
    expect(pickLocale('zh-CN')).toBe('zh-CN');
    expect(pickLocale('zh')).toBe('zh-CN');
    expect(pickLocale('zh-TW')).toBe('en');
    expect(pickLocale('en-US')).toBe('en');
    expect(pickLocale(undefined)).toBe('en');
  });

  it('fills parameters in the current language', async () => {
    expect(t('app.connectedAs', { name: 'Alice' })).toBe('Connected as Alice');
    await setLocale('zh-CN');
    expect(t('app.connectedAs', { name: 'Alice' })).toBe('已连接：Alice');
  });

  it('chooses the plural form by count and language', async () => {
    expect(t('library.assetCount', { count: 1 })).toBe('1 asset');
    expect(t('library.assetCount', { count: 0 })).toBe('0 assets');
    expect(t('library.assetCount', { count: 12 })).toBe('12 assets');
    expect(t('library.group.deleteWarning', { count: 0 })).toBe('It has no assets.');
    expect(t('library.group.deleteWarning', { count: 3 })).toBe('Its 3 assets can no longer be used.');
    expect(t('generate.blocked', { count: 1 })).toBe('1 problem to fix above before generating.');
    await setLocale('zh-CN');
    expect(t('library.assetCount', { count: 1 })).toBe('1 个素材');
  });

  it('uses the same parameters in both languages', () => {
    const names = (template: string) =>
      new Set([...template.matchAll(/\{(\w+)(?:, plural,|\})/g)].map((m) => m[1]));
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect([...names(zhCN[key])].sort(), key).toEqual([...names(en[key])].sort());
    }
  });

  it('loads the browser’s language before the first render, English otherwise', async () => {
    const language = Object.getOwnPropertyDescriptor(Navigator.prototype, 'language');
    try {
      Object.defineProperty(navigator, 'language', { value: 'zh-CN', configurable: true });
      await loadBrowserLocale();
      expect(currentLocale()).toBe('zh-CN');
      expect(t('app.tabs.library')).toBe(zhCN['app.tabs.library']);
      Object.defineProperty(navigator, 'language', { value: 'de-DE', configurable: true });
      await loadBrowserLocale();
      expect(currentLocale()).toBe('en');
    } finally {
      delete (navigator as { language?: string }).language;
      if (language) expect(navigator.language).toBeTruthy();
    }
  });

  it('has a Chinese string for every English key', () => {
    for (const key of Object.keys(en)) expect(zhCN[key as keyof typeof en], key).toBeTruthy();
  });
});
