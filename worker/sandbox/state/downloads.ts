import { dataUriProblem, downloadProblem, type MediaKind } from './download';
import { rows, type Ctx } from './context';
import type { AssetRow } from './assets';
import type { PendingRef, TaskRow } from './tasks';

const KIND: Record<PendingRef['kind'], MediaKind> = { image: 'Image', video: 'Video', audio: 'Audio' };

/** Ids being fetched right now, so that a second alarm run does not fetch them twice. */
const inFlight = new Set<string>();

/** Downloads every pending asset and task reference; records each outcome as it arrives. */
export async function runPendingDownloads(ctx: () => Ctx): Promise<void> {
  const c = ctx();
  const assets = rows<AssetRow>(c.sql, "SELECT * FROM assets WHERE download = 'pending'").filter((a) => !inFlight.has(a.id));
  const tasks = rows<TaskRow>(c.sql, "SELECT * FROM tasks WHERE download = 'pending'").filter((t) => !inFlight.has(t.id));
  await Promise.all([...assets.map((a) => downloadAsset(ctx, a)), ...tasks.map((t) => downloadTaskRefs(ctx, t))]);
}

async function downloadAsset(ctx: () => Ctx, asset: AssetRow): Promise<void> {
  inFlight.add(asset.id);
  try {
    const problem = await downloadProblem(asset.url, asset.type);
    const c = ctx();
    c.sql.exec(
      "UPDATE assets SET download = ?, error = ?, updated_at = ? WHERE id = ? AND download = 'pending'",
      problem ? 'failed' : 'ok', problem ?? '', c.now, asset.id,
    );
  } finally {
    inFlight.delete(asset.id);
  }
}

async function downloadTaskRefs(ctx: () => Ctx, task: TaskRow): Promise<void> {
  inFlight.add(task.id);
  try {
    const refs = JSON.parse(task.refs) as PendingRef[];
    const problems = await Promise.all(
      refs.map(async (ref) => {
        const why = ref.url.startsWith('data:') ? dataUriProblem(ref.url) : await downloadProblem(ref.url, KIND[ref.kind]);
        return why ? `${ref.param}: resource download failed. ${why}` : null;
      }),
    );
    const first = problems.find((p) => p !== null) ?? null;
    const c = ctx();
    c.sql.exec(
      "UPDATE tasks SET download = ?, error = ?, refs_done_at = ? WHERE id = ? AND download = 'pending'",
      first ? 'failed' : 'ok', first ?? '', c.now, task.id,
    );
  } finally {
    inFlight.delete(task.id);
  }
}
