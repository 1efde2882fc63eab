import { type ComponentChild, render } from 'preact';
import { act } from 'preact/test-utils';

/**
 * Tiny DOM helpers for page tests (happy-dom, no UI testing library): controls are found the way
 * a member finds them, by their label or their text.
 */

let container: HTMLElement | null = null;

export function mount(node: ComponentChild): HTMLElement {
  unmount();
  container = document.createElement('div');
  document.body.append(container);
  act(() => render(node, container!));
  return container;
}

export function unmount(): void {
  if (!container) return;
  const current = container;
  act(() => render(null, current));
  current.remove();
  container = null;
}

/** The control labelled `label` (exact text of a <label for>), like getByLabelText. */
export function byLabel<T extends HTMLElement = HTMLInputElement>(label: string): T {
  const labels = [...document.querySelectorAll('label')].filter((l) => l.textContent?.trim() === label);
  if (labels.length !== 1) throw new Error(`expected one label "${label}", found ${labels.length}`);
  const control = document.getElementById(labels[0]!.htmlFor);
  if (!control) throw new Error(`label "${label}" points at no control`);
  return control as T;
}

/** The button whose accessible text is `name`. */
export function button(name: string | RegExp): HTMLButtonElement {
  const found = [...document.querySelectorAll('button')].filter((b) => (typeof name === 'string' ? b.textContent?.trim() === name : name.test(b.textContent ?? '')));
  if (found.length !== 1) throw new Error(`expected one button ${String(name)}, found ${found.length}`);
  return found[0]!;
}

export function type(control: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  act(() => {
    control.value = value;
    control.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function select(control: HTMLSelectElement, value: string): void {
  act(() => {
    control.value = value;
    control.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

export function click(element: HTMLElement): void {
  act(() => element.click());
}

/** The text of the control's description (aria-describedby), e.g. its error message. */
export function description(control: HTMLElement): string {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

/** The page's visible text. */
export const text = (): string => document.body.textContent ?? '';
