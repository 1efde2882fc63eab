import type { GenerateForm } from '@/lib/generate/generate-form';

export type StudioTab = 'storyboard' | 'batch' | 'compare' | 'history';

/** A form handed from History ("Reuse these settings") to the storyboard (a new shot) or the batch. */
export interface Handoff {
  target: 'storyboard' | 'batch';
  form: GenerateForm;
  /** What the form could not take, in the member's words. */
  notes: string[];
}
