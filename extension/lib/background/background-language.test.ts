import { afterEach, describe, expect, it } from 'vitest';
import { assetMessage } from '@/lib/background/background-sync';
import { type MenuState, submenuItems } from '@/lib/background/context-menu';
import { checkMediaUrl } from '@/lib/capture/url-rules';
import { currentLocale, provideLocale, setLocale } from '@/lib/i18n/translate';
import { zhCN } from '@/lib/i18n/zh-CN';
import { assetRecord } from '@/lib/testing/test-setup';

afterEach(() => setLocale('en'));

const GROUPS: MenuState = { connected: true, defaultGroupId: null, groups: [] };

describe('the background speaks the browser’s language', () => {
  it('menus, refusals and notifications in English', () => {
    expect(submenuItems(GROUPS).map((i) => i.title)).toEqual(['Web captures (new default group)', 'New group…']);
    expect(checkMediaUrl('blob:https://example.com/1')).toMatchObject({ ok: false, reason: expect.stringContaining('blob:') });
    expect(assetMessage(assetRecord({ localId: 'a', name: 'Cat', status: 'Active' }), 'Moodboard')).toEqual(['Ready: Cat', 'Added to Moodboard and ready for video generation.']);
  });

  it('and in Simplified Chinese', async () => {
    await setLocale('zh-CN');
    expect(submenuItems(GROUPS).map((i) => i.title)).toEqual(['网页收集（新的默认分组）', '新建分组…']);
    expect(submenuItems({ connected: false, defaultGroupId: null, groups: [] }).map((i) => i.title)).toEqual(['将 Arkbridge 连接到团队…']);
    const refusal = checkMediaUrl('blob:https://example.com/1');
    expect(refusal).toEqual({ ok: false, reason: zhCN['capture.url.blob'], advice: zhCN['capture.url.blobAdvice'] });
    expect(assetMessage(assetRecord({ localId: 'a', name: 'Cat', status: 'Failed' }))).toEqual(['无法添加：Cat', '服务无法处理此项。']);
  });

  it('the worker provides Chinese up front and uses it when the browser is Chinese', () => {
    const language = navigator.language;
    Object.defineProperty(navigator, 'language', { value: 'zh-CN', configurable: true });
    try {
      provideLocale('zh-CN', zhCN);
      expect(currentLocale()).toBe('zh-CN');
      expect(submenuItems(GROUPS)[1]!.title).toBe('新建分组…');
    } finally {
      delete (navigator as { language?: string }).language;
      expect(navigator.language).toBe(language);
    }
  });
});
