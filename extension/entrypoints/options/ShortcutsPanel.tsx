import { useEffect, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';
import { openShortcutSettings, opensShortcutSettings, saveShortcut } from '@/lib/messaging/keyboard-shortcut';
import { lastUsedGroup } from '@/lib/storage/last-used-group';
import type { GroupRecord } from '@/lib/storage/records/group-record';
import '@/lib/i18n/options.en';

/**
 * The keyboard save's shortcut as the browser has it now, the group it saves to, and how to change
 * the shortcut (Chrome: chrome://extensions/shortcuts; Firefox: the add-ons manager). Read again
 * when the page is shown again, e.g. after changing the shortcut in another tab.
 */
export function ShortcutsPanel({ groups }: { groups: GroupRecord[] }) {
  /** undefined while reading; null: the browser cannot say; '': no shortcut. */
  const [shortcut, setShortcut] = useState<string | null | undefined>(undefined);
  const [lastGroupId, setLastGroupId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const read = async () => {
      const [current, groupId] = await Promise.all([saveShortcut(), lastUsedGroup.id().catch(() => null)]);
      setShortcut(current);
      setLastGroupId(groupId);
    };
    void read();
    const onShown = () => {
      if (document.visibilityState === 'visible') void read();
    };
    document.addEventListener('visibilitychange', onShown);
    return () => document.removeEventListener('visibilitychange', onShown);
  }, []);

  async function onChange() {
    setProblem(null);
    try {
      await openShortcutSettings();
    } catch (error) {
      setProblem(t('options.shortcuts.openFailed', { message: error instanceof Error ? error.message : String(error) }));
    }
  }

  const lastGroup = groups.find((g) => g.id === lastGroupId);
  return (
    <section aria-labelledby="shortcuts-heading">
      <h2 id="shortcuts-heading">{t('options.shortcuts.heading')}</h2>
      <p class="shortcut" id="save-shortcut">
        <span class="shortcut__name">{t('options.shortcuts.save')}</span>{' '}
        {shortcut === undefined ? null : shortcut ? <kbd>{shortcut}</kbd> : <em>{shortcut === null ? t('options.shortcuts.unknown') : t('options.shortcuts.none')}</em>}
      </p>
      <p class="lead">{t('options.shortcuts.saveHint')}</p>
      <p>{lastGroup ? t('options.shortcuts.lastGroup', { name: lastGroup.name }) : t('options.shortcuts.noLastGroup')}</p>
      <p>{opensShortcutSettings() ? t('options.shortcuts.changeFirefox') : t('options.shortcuts.changeChrome')}</p>
      <div class="actions">
        <button type="button" onClick={() => void onChange()}>
          {t('options.shortcuts.change')}
        </button>
      </div>
      {problem && (
        <Banner tone="error" id="shortcuts-note">
          <p>{problem}</p>
        </Banner>
      )}
    </section>
  );
}
