import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { modelSpec } from '@@/shared';
import { Field } from '@/components/Field';
import { batchDate } from '@/entrypoints/studio/batch/BatchGrid';
import { t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { batchStore } from '@/lib/storage/batch-store';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { CompareSync } from '@/lib/studio/compare-sync';
import { chooseTake, type TakeOwner } from '@/lib/studio/take-links';
import { videoAddress } from '@/lib/tasks/task-presentation';
import { taskSubject } from '@/lib/tasks/task-stills';
import { useStill } from '@/lib/tasks/use-still';
import '@/components/stills.css';
import '@/entrypoints/studio/compare/compare.css';
import '@/lib/i18n/studio.en';

interface Source {
  key: string;
  label: string;
  owner: TakeOwner;
  chosen?: string;
  /** Completed takes, with what to call each. */
  takes: { task: TaskRecord; name: string }[];
}

/** The shots and batches with completed takes, from what is stored. */
async function readSources(): Promise<Source[]> {
  const completed = new Map((await taskStore.withStatus('completed')).map((task) => [task.localId, task]));
  const sources: Source[] = [];
  for (const board of await storyboardStore.all()) {
    board.shots.forEach((shot, i) => {
      const takes = shot.takes.flatMap((id, n) => (completed.has(id) ? [{ task: completed.get(id)!, name: t('studio.take', { n: n + 1 }) }] : []));
      if (takes.length) sources.push({ key: `shot:${shot.id}`, label: t('studio.compare.shotSource', { board: board.name, n: i + 1 }), owner: { kind: 'shot', boardId: board.id, shotId: shot.id }, chosen: shot.chosen, takes });
    });
  }
  for (const batch of await batchStore.newestFirst()) {
    const takes = batch.takes.flatMap((id, n) => {
      const task = completed.get(id);
      const seed = (task?.body as { seed?: number } | undefined)?.seed;
      return task ? [{ task, name: `${t('studio.take', { n: n + 1 })} · ${modelSpec(task.model).label}${seed === undefined ? '' : ` · ${t('studio.batch.seed', { seed })}`}` }] : [];
    });
    if (takes.length) sources.push({ key: `batch:${batch.id}`, label: t('studio.compare.batchSource', { date: batchDate(batch) }), owner: { kind: 'batch', batchId: batch.id }, chosen: batch.chosen, takes });
  }
  return sources;
}

/** Compare: two to four completed takes of a shot or a batch side by side, played in sync by one control; one is chosen (and stored). */
export function CompareView() {
  const sources = useDb(readSources, ['tasks', 'storyboards', 'batches']);
  const [key, setKey] = useState<string | null>(null);
  const [picked, setPicked] = useState<string[] | null>(null);
  const [time, setTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [posters, setPosters] = useState<ReadonlyMap<string, string>>(new Map());
  const setPoster = (id: string, poster: string) => setPosters((current) => (current.get(id) === poster ? current : new Map(current).set(id, poster)));
  const players = useRef<(HTMLVideoElement | null)[]>([]);
  const sync = useMemo(() => new CompareSync(() => players.current.filter((p): p is HTMLVideoElement => p !== null)), []);

  if (!sources) return <p aria-busy="true">{t('app.loading')}</p>;
  if (!sources.length) return <p class="studio-muted">{t('studio.compare.none')}</p>;
  const source = sources.find((s) => s.key === key) ?? sources[0]!;
  const ids = (picked ?? source.takes.slice(0, 2).map((x) => x.task.localId)).filter((id) => source.takes.some((x) => x.task.localId === id));
  const shown = source.takes.filter((x) => ids.includes(x.task.localId));
  players.current.length = shown.length;

  const toggle = (id: string, on: boolean) => {
    const next = on ? [...ids, id] : ids.filter((x) => x !== id);
    if (next.length <= 4) setPicked(next);
  };
  const playPause = async () => {
    if (sync.playing) sync.pause();
    else await sync.play();
    setPlaying(sync.playing);
  };
  const duration = sync.duration;

  return (
    <div class="compare">
      <Field id="compare-source" label={t('studio.compare.source')}>
        {(control) => (
          <select
            {...control}
            value={source.key}
            onChange={(e) => {
              setKey((e.currentTarget as HTMLSelectElement).value);
              setPicked(null);
            }}
          >
            {sources.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset class="compare-picks">
        <legend>{t('studio.compare.pickHint')}</legend>
        {source.takes.map(({ task, name }) => (
          <label key={task.localId}>
            <input
              type="checkbox"
              data-testid="compare-pick"
              checked={ids.includes(task.localId)}
              disabled={!ids.includes(task.localId) && ids.length >= 4}
              aria-label={t('studio.compare.pick', { name })}
              onChange={(e) => toggle(task.localId, (e.currentTarget as HTMLInputElement).checked)}
            />
            {name}
          </label>
        ))}
      </fieldset>
      {shown.length >= 2 && (
        <div class="compare-controls">
          <button type="button" class="primary" data-testid="compare-play" onClick={() => void playPause()}>
            {playing ? t('studio.compare.pause') : t('studio.compare.play')}
          </button>
          <Field id="compare-position" label={t('studio.compare.position')}>
            {(control) => (
              <input
                {...control}
                type="range"
                data-testid="compare-position"
                min={0}
                max={Number.isFinite(duration) ? duration : 0}
                step={0.05}
                value={time}
                onInput={(e) => {
                  const to = Number((e.currentTarget as HTMLInputElement).value);
                  sync.seek(to);
                  setTime(to);
                }}
              />
            )}
          </Field>
          <span class="studio-muted" aria-hidden="true">
            {time.toFixed(1)} s
          </span>
        </div>
      )}
      <ul class="compare-grid" style={{ gridTemplateColumns: `repeat(${Math.max(1, shown.length)}, minmax(0, 1fr))` }}>
        {shown.map(({ task, name }, i) => {
          const chosen = source.chosen === task.localId;
          return (
            <li key={task.localId} class={chosen ? 'compare-cell compare-cell--chosen' : 'compare-cell'}>
              <p class="takes__title">
                {name}
                {chosen && (
                  <span class="take__badge take__badge--chosen" data-testid="chosen-mark">
                    {t('studio.compare.chosen')}
                  </span>
                )}
              </p>
              <video
                ref={(el) => void (players.current[i] = el)}
                class="take__video still-video"
                src={videoAddress(task, Date.now())}
                poster={posters.get(task.localId)}
                preload="auto"
                playsInline
                aria-label={name}
                onTimeUpdate={i === 0 ? (e) => setTime((e.currentTarget as HTMLVideoElement).currentTime) : undefined}
                onEnded={i === 0 ? () => setPlaying(false) : undefined}
              />
              <StillOf task={task} onPoster={setPoster} />
              <button type="button" data-testid="compare-choose" aria-pressed={chosen} onClick={() => void chooseTake(source.owner, task.localId)}>
                {t('studio.compare.choose', { name })}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A compared take's still, handed up to its player (the players stay plain elements: the sync drives them). */
function StillOf({ task, onPoster }: { task: TaskRecord; onPoster: (id: string, poster: string) => void }) {
  const { poster } = useStill(taskSubject(task, Date.now()), 'poster');
  useEffect(() => void (poster && onPoster(task.localId, poster)), [poster]);
  return null;
}
