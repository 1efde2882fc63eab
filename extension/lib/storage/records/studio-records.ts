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

/** Where a storyboard's run stands: still going, or how it ended. */
export type RunState = 'running' | 'completed' | 'failed' | 'stopped';

/**
 * A storyboard's run, stored with it so that the background drives it with no page open and a
 * restarted service worker picks it up where it was (lib/studio/run-driver).
 */
export interface RunRecord {
  id: string;
  mode: RunMode;
  state: RunState;
  startedAt: number;
  endedAt?: number;
  /** Launches so far per shot id in this run: the next launch of a shot is attempt `launches + 1`. */
  launches: Record<string, number>;
  /** The take each shot got in this run (its latest launch): task record `localId`s by shot id. */
  takes: Record<string, string>;
  /** A failed run: the shot it stopped at and why (lib/studio/run-plan's RunEnd). */
  failure?: { shotId: string; reason: string; message?: string };
  /** The end was told in a notification (once). */
  announced?: boolean;
}

export interface StoryboardRecord {
  id: string;
  name: string;
  shots: ShotRecord[];
  /** How the current run goes: one shot after another, or every shot that waits for nothing at once. */
  runMode?: RunMode;
  /** The latest run (running, or how it ended). */
  run?: RunRecord;
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
