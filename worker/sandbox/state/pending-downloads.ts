import { dataUriProblem, downloadProblem, type MediaKind } from './media-download';
import { rows, type Ctx } from './state-context';
import type { AssetRow } from './assets';
import type { PendingRef, TaskRow } from './tasks';

const KIND: Record<PendingRef['kind'], MediaKind> = { image: 'Image', video: 'Video', audio: 'Audio' };

/**
 * Downloads under way, by asset or task id: a later run joins them instead of fetching twice, and
 * a new item starts at once even while an earlier (slow) download is still running.
 */
const inFlight = new Map<string, Promise<void>>();

function once(id: string, run: () => Promise<void>): Promise<void> {
  let running = inFlight.get(id);
  if (!running) {
    running = run().finally(() => inFlight.delete(id));
    inFlight.set(id, running);
  }
  return running;
}

/** Downloads every pending asset and task reference; records each outcome as it arrives. */
export async function runPendingDownloads(ctx: () => Ctx): Promise<void> {
  const c = ctx();
  const assets = rows<AssetRow>(c.sql, "SELECT * FROM assets WHERE download = 'pending'");
  const tasks = rows<TaskRow>(c.sql, "SELECT * FROM tasks WHERE download = 'pending'");
  await Promise.all([...assets.map((a) => once(a.id, () => downloadAsset(ctx, a))), ...tasks.map((t) => once(t.id, () => downloadTaskRefs(ctx, t)))]);
}

async function downloadAsset(ctx: () => Ctx, asset: AssetRow): Promise<void> {
  const problem = await downloadProblem(asset.url, asset.type);
  const c = ctx();
  c.sql.exec(
    "UPDATE assets SET download = ?, error = ?, updated_at = ? WHERE id = ? AND download = 'pending'",
    problem ? 'failed' : 'ok', problem ?? '', c.now, asset.id,
  );
}

async function downloadTaskRefs(ctx: () => Ctx, task: TaskRow): Promise<void> {
  const refs = JSON.parse(task.refs) as PendingRef[];
  const problems = await Promise.all(
    refs.map(async (ref) => {
      // Inline images were checked when the task was created (rows from before that keep the URI).
      const why = ref.url.startsWith('data:') ? (ref.problem ?? dataUriProblem(ref.url)) : await downloadProblem(ref.url, KIND[ref.kind]);
      return why ? `${ref.param}: resource download failed. ${why}` : null;
    }),
  );
  const first = problems.find((p) => p !== null) ?? null;
  const c = ctx();
  c.sql.exec(
    "UPDATE tasks SET download = ?, error = ?, refs_done_at = ? WHERE id = ? AND download = 'pending'",
    first ? 'failed' : 'ok', first ?? '', c.now, task.id,
  );
}
