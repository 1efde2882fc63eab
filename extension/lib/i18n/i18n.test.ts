import { afterEach, describe, expect, it } from 'vitest';
import { en } from './en';
import { pickLocale, setLocale, t } from './index';
import { zhCN } from './zh-CN';

afterEach(() => setLocale('en'));

describe('popup strings', () => {
  it('picks Simplified Chinese for zh browsers, English otherwise', () => {
    expect(pickLocale('zh-CN')).toBe('zh-CN');
    expect(pickLocale('zh')).toBe('zh-CN');
    expect(pickLocale('zh-TW')).toBe('en');
    expect(pickLocale('en-US')).toBe('en');
    expect(pickLocale(undefined)).toBe('en');
  });

  it('fills parameters in the current language', () => {
    expect(t('app.connectedAs', { name: 'Alice' })).toBe('Connected as Alice');
    setLocale('zh-CN');
    expect(t('app.connectedAs', { name: 'Alice' })).toBe('已连接：Alice');
  });

  it('has a Chinese string for every English key', () => {
    for (const key of Object.keys(en)) expect(zhCN[key as keyof typeof en], key).toBeTruthy();
  });
});
