import { useEffect, useRef } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import '@/components/ui.css';
import type { NearDuplicate } from '@/lib/saving/near-duplicate-check';

interface DuplicateWarningProps {
  /** The item about to be added. */
  name: string;
  near: NearDuplicate;
  onChoose: (choice: 'add' | 'open') => void;
}

/**
 * Before an image that nearly repeats one in the library is added: names the existing asset, its
 * group and its owner, and asks "Add anyway" or "Open the existing one" (role alertdialog,
 * `data-testid="duplicate-warning"`). Shared by the popup's file adds and the side panel's save.
 */
export function DuplicateWarning({ name, near, onChoose }: DuplicateWarningProps) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const owner = near.owner ?? t('duplicate.ownerYou');
  return (
    <div class="banner banner--warning duplicate-warning" role="alertdialog" aria-labelledby="duplicate-warning-title" aria-describedby="duplicate-warning-text" data-testid="duplicate-warning">
      <p id="duplicate-warning-title">
        <strong>{t('duplicate.title')}</strong> · {name}
      </p>
      <p id="duplicate-warning-text">{t('duplicate.message', { name: near.match.asset.name, group: near.groupName, owner })}</p>
      <div class="actions">
        <button type="button" ref={first} onClick={() => onChoose('open')}>
          {t('duplicate.openExisting')}
        </button>
        <button type="button" class="primary" onClick={() => onChoose('add')}>
          {t('duplicate.addAnyway')}
        </button>
      </div>
    </div>
  );
}
