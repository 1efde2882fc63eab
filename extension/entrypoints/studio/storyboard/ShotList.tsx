import { useEffect } from 'preact/hooks';
import type { ModelSpec } from '@@/shared';
import { IconButton } from '@/components/IconButton';
import { t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { latestTake, shotProgress } from '@/lib/studio/run-plan';
import { shotProblems } from '@/lib/studio/shot-chain';
import { statusLabel } from '@/lib/tasks/task-presentation';
import '@/lib/i18n/studio.en';
import '@/lib/i18n/tasks.en';

export type ShotAction = 'edit' | 'up' | 'down' | 'duplicate' | 'delete' | 'retry';

interface ShotListProps {
  board: StoryboardRecord;
  /** A shot just moved: its move button (or, at an end, its title) takes the focus once it is in its new place. */
  focus: { shotId: string; action: 'up' | 'down' } | null;
  tasks: ReadonlyMap<string, TaskRecord>;
  selected: string | null;
  specOf: (id: string) => ModelSpec;
  allowHttp: boolean;
  onAction: (action: ShotAction, shotId: string, index: number) => void;
}

/** The storyboard's shots in order: each with its prompt, where it stands, and its buttons (move, duplicate, delete, retry). */
export function ShotList({ board, tasks, selected, focus, specOf, allowHttp, onAction }: ShotListProps) {
  const last = board.shots.length - 1;
  useEffect(() => {
    if (!focus) return;
    const item = document.querySelector(`[data-shot-id="${focus.shotId}"]`);
    const move = item?.querySelector<HTMLButtonElement>(`[data-testid="shot-${focus.action}"]`);
    (move && !move.disabled ? move : item?.querySelector<HTMLButtonElement>('.shot__title'))?.focus();
  }, [focus, board]);
  return (
    <ol class="shots" aria-label={t('studio.board.shots')}>
      {board.shots.map((shot, index) => {
        const n = index + 1;
        const progress = shotProgress(shot, tasks);
        const take = latestTake(shot, tasks);
        const problems = shotProblems(board.shots, index, specOf(shot.form.model), { allowHttp });
        const status = progress === 'queued' ? t('studio.status.queued') : take ? statusLabel(take) : t('studio.status.idle');
        return (
          <li key={shot.id} class={selected === shot.id ? 'shot shot--selected' : 'shot'} data-testid="shot" data-shot={n} data-shot-id={shot.id}>
            <div class="shot__head">
              <button type="button" class="shot__title" aria-pressed={selected === shot.id} aria-label={t('studio.shot.edit', { n })} onClick={() => onAction('edit', shot.id, index)}>
                {t('studio.shot.title', { n })}
              </button>
              <span class={`shot__status shot__status--${progress}`} data-testid="shot-status">
                {status}
              </span>
            </div>
            <p class="shot__prompt">{shot.form.prompt.trim() || t('studio.shot.noPrompt')}</p>
            <p class="studio-muted">
              {specOf(shot.form.model).label}
              {shot.chain && ` · ${t('studio.chain.badge', { n: index })}`}
              {problems.length > 0 && ` · ${t('studio.shot.problems', { count: problems.length })}`}
            </p>
            {shot.halted && (
              <p class="gen-error" role="status">
                {shot.halted.reason === 'invalid' ? t('studio.halt.invalid', { message: shot.halted.message ?? '' }) : haltText(shot.halted.reason, index)}
              </p>
            )}
            <div class="shot__actions">
              <IconButton icon="up" label={t('studio.shot.up', { n })} data-testid="shot-up" disabled={index === 0} onClick={() => onAction('up', shot.id, index)} />
              <IconButton icon="down" label={t('studio.shot.down', { n })} data-testid="shot-down" disabled={index === last} onClick={() => onAction('down', shot.id, index)} />
              <IconButton icon="duplicate" label={t('studio.shot.duplicate', { n })} data-testid="shot-duplicate" onClick={() => onAction('duplicate', shot.id, index)} />
              <IconButton
                icon="retry"
                label={t('studio.shot.retry', { n })}
                data-testid="shot-retry"
                disabled={progress === 'queued' || progress === 'running' || problems.length > 0}
                onClick={() => onAction('retry', shot.id, index)}
              />
              <IconButton icon="delete" label={t('studio.shot.delete', { n })} data-testid="shot-delete" onClick={() => onAction('delete', shot.id, index)} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}

const HALTS = {
  'previous-failed': 'studio.halt.previous-failed',
  'previous-no-frame': 'studio.halt.previous-no-frame',
  'previous-not-run': 'studio.halt.previous-not-run',
} as const;

/** Why the run stopped at a shot, naming the shot before it. */
const haltText = (reason: string, index: number) => (reason in HALTS ? t(HALTS[reason as keyof typeof HALTS], { n: index }) : reason);
