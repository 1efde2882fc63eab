import { useState } from 'preact/hooks';
import { Field } from '@/components/Field';
import { VirtualList } from '@/entrypoints/popup/library/VirtualList';
import type { Handoff } from '@/entrypoints/studio/handoff';
import { MakeFinal } from '@/entrypoints/studio/parts/MakeFinal';
import { TakeVideo } from '@/entrypoints/studio/parts/TakeVideo';
import { useStudioModels } from '@/entrypoints/studio/use-studio-models';
import { formOfRequest } from '@/lib/generate/generate-draft';
import { currentLocale, t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { taskStore } from '@/lib/storage/task-store';
import { ANY, filterHistory, type HistoryFilter, historyModels, shotIndex, type StatusFilter } from '@/lib/studio/history-filter';
import { requestSummary, statusLabel } from '@/lib/tasks/task-presentation';
import '@/entrypoints/studio/history/history.css';
import '@/lib/i18n/studio.en';
import '@/lib/i18n/tasks.en';

const readTasks = () => taskStore.newestFirst();
const readBoards = () => storyboardStore.all();
/** Rows are this tall; the list shows this much (its window is what is rendered). */
export const ROW_HEIGHT = 52;
const LIST_HEIGHT = 520;
const STATUSES: StatusFilter[] = ['all', 'running', 'completed', 'failed'];
const STATUS_LABEL = { all: 'studio.history.any', running: 'studio.history.running', completed: 'studio.history.completed', failed: 'studio.history.failed' } as const;

const when = (ms: number) => new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(ms);
const promptOf = (task: TaskRecord): string => {
  const text = task.body.content?.find((e) => e.type === 'text');
  return (text && text.type === 'text' ? text.text : task.body.prompt) ?? '';
};

/** History: every task with its request, filtered by model, status and shot, in a list that renders only its visible rows; "Reuse these settings". */
export function HistoryView({ onReuse, onStart }: { onReuse: (handoff: Handoff) => void; /** Opens the storyboard: what a first-time history offers. */ onStart: () => void }) {
  const { specOf } = useStudioModels();
  const tasks = useDb(readTasks, ['tasks']);
  const boards = useDb(readBoards, ['storyboards']) ?? [];
  const [filter, setFilter] = useState<HistoryFilter>(ANY);
  const [openId, setOpenId] = useState<string | null>(null);
  if (!tasks) return <p aria-busy="true">{t('app.loading')}</p>;
  if (!tasks.length) {
    return (
      <div class="empty-state" data-testid="empty-history">
        <p>{t('studio.history.none')}</p>
        <button type="button" class="primary" onClick={onStart}>
          {t('studio.history.start')}
        </button>
      </div>
    );
  }

  const places = shotIndex(boards);
  const shown = filterHistory(tasks, filter, places);
  const open = tasks.find((x) => x.localId === openId) ?? null;
  const place = open ? places.get(open.localId) : undefined;
  const reuse = (target: Handoff['target']) => {
    if (!open) return;
    const { form, dropped, inline } = formOfRequest(open.body as unknown as Record<string, unknown>, open.model);
    onReuse({ target, form, notes: [...(dropped.length ? [t('studio.history.dropped', { items: dropped.join(' ') })] : []), ...(inline ? [t('studio.history.inline', { count: inline })] : [])] });
  };

  return (
    <div class="history">
      <div class="studio-bar" data-testid="history-filter">
        <Field id="history-model" label={t('studio.history.model')}>
          {(control) => (
            <select {...control} value={filter.model} onChange={(e) => setFilter({ ...filter, model: (e.currentTarget as HTMLSelectElement).value })}>
              <option value="">{t('studio.history.any')}</option>
              {historyModels(tasks).map((id) => (
                <option key={id} value={id}>
                  {specOf(id).label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="history-status" label={t('studio.history.status')}>
          {(control) => (
            <select {...control} value={filter.status} onChange={(e) => setFilter({ ...filter, status: (e.currentTarget as HTMLSelectElement).value as StatusFilter })}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(STATUS_LABEL[s])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="history-shot" label={t('studio.history.shot')}>
          {(control) => (
            <select {...control} value={filter.shot} onChange={(e) => setFilter({ ...filter, shot: (e.currentTarget as HTMLSelectElement).value })}>
              <option value="">{t('studio.history.any')}</option>
              <option value="none">{t('studio.history.noShot')}</option>
              {boards.flatMap((b) =>
                b.shots.map((s, i) => (
                  <option key={s.id} value={s.id}>
                    {t('studio.compare.shotSource', { board: b.name, n: i + 1 })}
                  </option>
                )),
              )}
            </select>
          )}
        </Field>
        <p class="studio-muted" role="status">
          {t('studio.history.count', { shown: shown.length, total: tasks.length })}
        </p>
      </div>
      <div class="history__columns">
        <VirtualList
          id="studio-history"
          label={t('studio.history.list')}
          items={shown}
          getKey={(task) => task.localId}
          rowHeight={ROW_HEIGHT}
          height={LIST_HEIGHT}
          onOpen={(task) => setOpenId(task.localId)}
          empty={<p class="studio-muted">{t('studio.history.empty')}</p>}
          renderRow={(task) => (
            <div class="history-row" data-testid="history-row">
              <span class="history-row__prompt">{promptOf(task) || task.model}</span>
              <span class="studio-muted">
                {when(task.createdAt)} · {specOf(task.model).label} · {statusLabel(task)}
              </span>
            </div>
          )}
        />
        <section class="history-detail" aria-labelledby="history-detail-title">
          <h2 id="history-detail-title">{t('studio.history.request')}</h2>
          {!open ? (
            <p class="studio-muted">{t('studio.history.select')}</p>
          ) : (
            <>
              {place && <p class="studio-muted">{t('studio.compare.shotSource', { board: place.boardName, n: place.shotNumber })}</p>}
              <dl class="history-request">
                {requestSummary(open.body).map((line) => (
                  <div key={line.param}>
                    <dt>{line.label}</dt>
                    <dd>{line.value}</dd>
                  </div>
                ))}
              </dl>
              <TakeVideo task={open} label={promptOf(open) || open.model} />
              <div class="studio-bar">
                <button type="button" data-testid="reuse-settings" onClick={() => reuse('storyboard')}>
                  {t('studio.history.reuseStoryboard')}
                </button>
                <button type="button" data-testid="reuse-settings-batch" onClick={() => reuse('batch')}>
                  {t('studio.history.reuseBatch')}
                </button>
              </div>
              <MakeFinal task={open} spec={specOf(open.model)} />
            </>
          )}
        </section>
      </div>
    </div>
  );
}
