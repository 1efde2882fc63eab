import type { GenerationParameter, ReferenceKind, ReferenceRole } from '@@/shared';

/**
 * The studio's records (`storyboards` and `batches` stores). Types only, importing nothing from the
 * extension (no import cycles). A shot's form has the Generate form's shape (lib/generate's
 * `GenerateForm` is assignable to it and back), written out here because storage sits below the
 * features. A shot's or a batch's tasks are ordinary task records (the `tasks` store), linked by
 * their `localId`, so that they show in the popup's Tasks too.
 */

export interface StoredReference {
  id: string;
  kind: ReferenceKind;
  role: ReferenceRole;
  source: 'library' | 'url' | 'file';
  url: string;
  label: string;
  assetId?: string;
  bytes?: number;
}

export interface StoredForm {
  model: string;
  prompt: string;
  references: StoredReference[];
  params: Partial<Record<GenerationParameter, string | number | boolean>>;
}

export interface ShotRecord {
  id: string;
  form: StoredForm;
  /** Starts from the previous shot's last frame (only where the model allows it: lib/studio/shot-chain). */
  chain: boolean;
  /** The shot's takes: task record `localId`s, oldest first. */
  takes: string[];
  /** The take chosen in Compare (a `localId` of `takes`): the one exported. */
  chosen?: string;
  /** Waiting to be created in the current run ("Run in order", "Run all", "Retry"). */
  queued?: boolean;
  /** Why the last run stopped at this shot before creating it (lib/studio/run-plan's reasons). */
  halted?: { reason: string; message?: string };
}

export type RunMode = 'order' | 'all';

export interface StoryboardRecord {
  id: string;
  name: string;
  shots: ShotRecord[];
  /** How the current run goes: one shot after another, or every shot that waits for nothing at once. */
  runMode?: RunMode;
  createdAt: number;
  updatedAt: number;
}

export interface BatchRecord {
  id: string;
  /** The form the batch was launched from (before each model's and seed's changes). */
  form: StoredForm;
  /** Task record `localId`s, in launch order. */
  takes: string[];
  /** The take chosen in Compare. */
  chosen?: string;
  createdAt: number;
}
