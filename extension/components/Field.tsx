import type { ComponentChildren } from 'preact';
import '@/components/ui.css';

/** What a control inside a Field must spread on itself to be labelled and described. */
export interface FieldControlProps {
  id: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
}

interface FieldProps {
  id: string;
  label: string;
  /** Shown under the control and announced with it; marks the control invalid. */
  error?: string | null | undefined;
  /** Help text under the control (e.g. a character count). */
  hint?: ComponentChildren;
  /** Renders the control; spread the given props on it. */
  children: (control: FieldControlProps) => ComponentChildren;
}

/** A labelled form control with its hint and error, wired with aria-invalid / aria-describedby. */
export function Field({ id, label, error, hint, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ');
  const control: FieldControlProps = { id };
  if (error) control['aria-invalid'] = 'true';
  if (describedBy) control['aria-describedby'] = describedBy;
  return (
    <div class={error ? 'field field--invalid' : 'field'}>
      <label class="field__label" for={id}>
        {label}
      </label>
      {children(control)}
      {error && (
        <p class="field__error" id={errorId}>
          {error}
        </p>
      )}
      {hint && (
        <p class="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
