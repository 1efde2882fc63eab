import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';

interface ConfirmProps {
  id: string;
  /** The question; names what is deleted. */
  children: ComponentChildren;
  confirmLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An inline confirmation (popups cannot rely on window.confirm): focus goes to Cancel, so Enter
 * does not delete by accident; Escape cancels.
 */
export function Confirm({ id, children, confirmLabel = t('common.delete'), busy = false, onConfirm, onCancel }: ConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      class="confirm"
      role="alertdialog"
      aria-labelledby={`${id}-question`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div id={`${id}-question`} class="confirm__question">
        {children}
      </div>
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {busy ? t('library.deleting') : confirmLabel}
        </button>
        <button type="button" ref={cancel} disabled={busy} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
