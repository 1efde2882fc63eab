import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { formatSeconds, nextPlayable, shotSeconds, type TimelineShot, timelineShots, totalSeconds } from '@/lib/studio/timeline';
import { videoAddress } from '@/lib/tasks/task-presentation';
import { taskSubject } from '@/lib/tasks/task-stills';
import { useStill } from '@/lib/tasks/use-still';
import '@/components/stills.css';
import '@/entrypoints/studio/storyboard/timeline.css';
import '@/lib/i18n/studio.en';

interface TimelineProps {
  board: StoryboardRecord;
  tasks: ReadonlyMap<string, TaskRecord>;
  /** Moves a shot to a place (0-based): the same stored edit as the arrow buttons'. */
  onMove: (shotId: string, to: number) => Promise<void>;
}

/**
 * The storyboard as a strip of stills, each as wide as its shot is long, with the total; shots
 * reordered by drag or Alt+Left/Right; `Play storyboard` plays each shot's take in order in one
 * player, its shot highlighted, skipping shots with nothing to play.
 */
export function Timeline({ board, tasks, onMove }: TimelineProps) {
  const shots = timelineShots(board, tasks);
  const [measured, setMeasured] = useState<ReadonlyMap<string, number>>(new Map());
  const [playing, setPlaying] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const dragged = useRef<string | null>(null);
  const player = useRef<HTMLVideoElement>(null);
  const current = shots.find((s) => s.shotId === playing && s.take);
  const src = current?.take ? videoAddress(current.take, Date.now()) : undefined;
  const skipped = shots.filter((s) => !s.take).map((s) => s.number);
  const total = totalSeconds(shots, measured);

  // A new source plays at once: the player moves on by itself at each shot's end.
  useEffect(() => {
    if (src) void player.current?.play()?.catch(() => undefined);
  }, [src, playing]);
  // After a move, the moved card keeps the focus, so that Alt+Arrow again moves it one more place.
  useEffect(() => {
    if (focusId) document.querySelector<HTMLButtonElement>(`[data-card-id="${focusId}"] button`)?.focus();
  }, [focusId, board]);

  const measure = (takeId: string, seconds: number) =>
    setMeasured((known) => (known.get(takeId) === seconds ? known : new Map(known).set(takeId, seconds)));
  const play = (shot: TimelineShot | null) => setPlaying(shot?.shotId ?? null);
  async function move(shot: TimelineShot, to: number) {
    if (to < 0 || to >= shots.length || to === shot.number - 1) return;
    await onMove(shot.shotId, to);
    setFocusId(shot.shotId);
    setSaid(t('studio.timeline.moved', { n: to + 1, count: shots.length }));
  }
  const dropOn = (target: TimelineShot) => {
    const shot = shots.find((s) => s.shotId === dragged.current);
    dragged.current = null;
    if (shot) void move(shot, target.number - 1);
  };

  return (
    <section class="timeline" aria-labelledby="timeline-title">
      <div class="timeline__bar">
        <h2 id="timeline-title">{t('studio.timeline.title')}</h2>
        <span class="studio-muted" data-testid="timeline-total">
          {t('studio.timeline.total', { length: formatSeconds(total) })}
        </span>
        <button type="button" class="primary" data-testid="play-storyboard" disabled={skipped.length === shots.length} onClick={() => play(nextPlayable(shots, null))}>
          {t('studio.timeline.play')}
        </button>
        {current && (
          <button type="button" data-testid="stop-storyboard" onClick={() => play(null)}>
            {t('studio.timeline.stop')}
          </button>
        )}
      </div>
      <p class="studio-muted" id="timeline-hint">
        {t('studio.timeline.hint')}
      </p>
      <ol class="timeline__strip" aria-label={t('studio.timeline.strip')}>
        {shots.map((shot) => (
          <TimelineCard
            key={shot.shotId}
            shot={shot}
            seconds={shotSeconds(shot, measured)}
            current={shot === current}
            onMeasured={measure}
            onPress={() => (shot.take ? play(shot) : setSaid(t('studio.timeline.cardNoTake', { n: shot.number })))}
            onKey={(delta) => void move(shot, shot.number - 1 + delta)}
            onDragStart={() => void (dragged.current = shot.shotId)}
            onDrop={() => dropOn(shot)}
          />
        ))}
      </ol>
      {skipped.length > 0 && (
        <p class="studio-muted" data-testid="timeline-skipped">
          {skipped.length === shots.length ? t('studio.timeline.nothing') : t('studio.timeline.skipped', { shots: skipped.join(', ') })}
        </p>
      )}
      <p class="timeline__said" role="status" data-testid="timeline-said">
        {current ? t('studio.timeline.playing', { n: current.number }) : said}
      </p>
      {current && src && (
        <video
          ref={player}
          class="timeline__player still-video"
          data-testid="storyboard-player"
          src={src}
          controls
          playsInline
          aria-label={t('studio.timeline.player')}
          onEnded={() => play(nextPlayable(shots, current.shotId))}
        />
      )}
    </section>
  );
}

interface CardProps {
  shot: TimelineShot;
  seconds: number | null;
  current: boolean;
  onMeasured: (takeId: string, seconds: number) => void;
  onPress: () => void;
  onKey: (delta: -1 | 1) => void;
  onDragStart: () => void;
  onDrop: () => void;
}

/** One shot on the strip: the frame its take starts from and the one it ends on, its length (its visible words are its name; the hint says what pressing does). */
function TimelineCard({ shot, seconds, current, onMeasured, onPress, onKey, onDragStart, onDrop }: CardProps) {
  const still = useStill(shot.take ? taskSubject(shot.take, Date.now()) : null, 'card');
  useEffect(() => {
    if (shot.take && still.duration && Number.isFinite(still.duration)) onMeasured(shot.take.localId, still.duration);
  }, [shot.take?.localId, still.duration]);
  const length = seconds === null ? t('studio.timeline.unknown') : formatSeconds(seconds);
  return (
    <li
      class={current ? 'timeline-card timeline-card--current' : 'timeline-card'}
      style={{ flexGrow: seconds ?? 1 }}
      data-testid="timeline-card"
      data-card-id={shot.shotId}
      aria-current={current ? 'true' : undefined}
      draggable
      onDragStart={(e) => {
        e.dataTransfer?.setData('text/plain', shot.shotId);
        onDragStart();
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        onDrop();
      }}
    >
      <button
        type="button"
        aria-describedby="timeline-hint"
        onClick={onPress}
        onKeyDown={(e) => {
          if (!e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
          e.preventDefault();
          onKey(e.key === 'ArrowLeft' ? -1 : 1);
        }}
      >
        <span class="timeline-card__stills">
          {shot.take ? (
            <>
              {still.head && <img class="timeline-card__still" src={still.head} alt="" data-testid="card-head" />}
              {still.tail && <img class="timeline-card__still" src={still.tail} alt="" data-testid="card-tail" />}
            </>
          ) : (
            <span class="timeline-card__empty">{t('studio.timeline.noTake')}</span>
          )}
        </span>
        <span class="timeline-card__meta">
          <span>{t('studio.timeline.shot', { n: shot.number })}</span>{' '}
          <span data-testid="card-length">{length}</span>
        </span>
      </button>
    </li>
  );
}
