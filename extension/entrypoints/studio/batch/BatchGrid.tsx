import type { ModelSpec } from '@@/shared';
import { Field } from '@/components/Field';
import { MakeFinal } from '@/entrypoints/studio/parts/MakeFinal';
import { TakeVideo } from '@/entrypoints/studio/parts/TakeVideo';
import { currentLocale, t } from '@/lib/i18n/translate';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { BatchRecord } from '@/lib/storage/records/studio-records';
import '@/lib/i18n/studio.en';

export const batchDate = (batch: Pick<BatchRecord, 'createdAt'>): string =>
  new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(batch.createdAt);

interface BatchGridProps {
  batches: BatchRecord[];
  shown: BatchRecord;
  tasks: ReadonlyMap<string, TaskRecord>;
  specOf: (id: string) => ModelSpec;
  onShow: (id: string) => void;
}

/** A batch's tasks as a grid: model, seed, progress, the video once done, and "Make final" on a draft. */
export function BatchGrid({ batches, shown, tasks, specOf, onShow }: BatchGridProps) {
  const date = batchDate(shown);
  return (
    <section class="batch-grid" aria-labelledby="batch-grid-title">
      <Field id="batch-choose" label={t('studio.batch.choose')}>
        {(control) => (
          <select {...control} value={shown.id} onChange={(e) => onShow((e.currentTarget as HTMLSelectElement).value)}>
            {batches.map((b) => (
              <option key={b.id} value={b.id}>
                {`${batchDate(b)} · ${b.form.prompt.slice(0, 60)}`}
              </option>
            ))}
          </select>
        )}
      </Field>
      <h2 id="batch-grid-title">{t('studio.batch.grid', { date })}</h2>
      <ul class="batch-cells" data-testid="batch-grid">
        {shown.takes.map((id, i) => {
          const task = tasks.get(id);
          if (!task) return null;
          const seed = (task.body as { seed?: number }).seed;
          const name = `${specOf(task.model).label}${seed === undefined ? '' : ` · ${t('studio.batch.seed', { seed })}`}`;
          return (
            <li key={id} class="batch-cell" data-testid="batch-cell">
              <p class="takes__title">
                {name}
                {shown.chosen === id && (
                  <span class="take__badge take__badge--chosen" data-testid="chosen-mark">
                    {t('studio.shot.chosen')}
                  </span>
                )}
              </p>
              <TakeVideo task={task} label={`${t('studio.take', { n: i + 1 })}: ${name}`} />
              <MakeFinal task={task} spec={specOf(task.model)} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
