import { describe, expect, it } from 'vitest';
import { setLocale, t } from '@/lib/i18n/translate';
import '@/lib/i18n/studio.en';

describe('plural forms holding parameters', () => {
  it('fills a parameter written inside a plural form', () => {
    expect(t('studio.export.missing', { count: 1, shots: '2' })).toBe('Cannot export yet: shot 2 has no completed take.');
    expect(t('studio.export.missing', { count: 2, shots: '1, 3' })).toBe('Cannot export yet: shots 1, 3 have no completed take.');
  });

  it('fills it in Chinese too', async () => {
    await setLocale('zh-CN');
    try {
      expect(t('studio.export.missing', { count: 2, shots: '1, 3' })).toBe('暂时无法导出：镜头 1, 3 没有已完成的结果。');
    } finally {
      await setLocale('en');
    }
  });

  it('still leaves a form it cannot read as written', () => {
    expect(t('studio.batch.count', { count: 3 })).toBe('3 tasks');
    expect(t('studio.export.missing', { shots: '2' })).toContain('{count, plural,');
  });
});
