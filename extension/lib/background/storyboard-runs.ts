import { modelSpec } from '@@/shared';
import { cachedModels } from '@/lib/generate/model-list';
import { t } from '@/lib/i18n/translate';
import { notify } from '@/lib/messaging/notify';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { announceChange } from '@/lib/storage/store-changes';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { driveRuns } from '@/lib/studio/run-driver';
import '@/lib/i18n/background.en';

/**
 * The background's part in storyboard runs: each pass steps them (lib/studio/run-driver decides and
 * launches), and the end of a run is told once in a notification, naming the shot a failed run
 * stopped at.
 */

/** Steps every running run with the models the member last loaded (the built-in catalog otherwise). Answers the shots launched. */
export async function stepRuns(client: ProxyClient, allowHttpMedia = false): Promise<number> {
  const info = await cachedModels();
  const specOf = (id: string) => info?.models.find((m) => m.id === id) ?? modelSpec(id);
  return driveRuns({ client, specOf, allowHttp: info?.allowHttp ?? allowHttpMedia });
}

/** Whether a run is going (the background keeps its alarm while one is). */
export const runsGoing = async (): Promise<boolean> => (await storyboardStore.all()).some((b) => b.run?.state === 'running');

/** The notification of a run's end: [title, message]. */
export function runMessage(board: StoryboardRecord): [string, string] {
  const failure = board.run?.failure;
  if (board.run?.state === 'completed') return [t('notify.run.done', { name: board.name }), t('notify.run.doneMessage', { count: board.shots.length })];
  const n = failure ? board.shots.findIndex((s) => s.id === failure.shotId) + 1 : 0;
  return [t('notify.run.failed', { name: board.name, n }), failure?.message || t('notify.run.failedMessage')];
}

/** Tells the member, once, each run that completed or failed. */
export async function announceRuns(): Promise<void> {
  for (const board of await storyboardStore.all()) {
    const run = board.run;
    if (!run || run.announced || (run.state !== 'completed' && run.state !== 'failed')) continue;
    await notify(`run-${board.id}`, ...runMessage(board));
    await storyboardStore.update(board.id, (current) => (current.run?.id === run.id ? { ...current, run: { ...current.run, announced: true } } : undefined));
    announceChange('storyboards');
  }
}
