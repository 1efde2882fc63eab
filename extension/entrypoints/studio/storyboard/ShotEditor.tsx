import { readinessClient } from '@/lib/generate/connected-quote';
import { useState } from 'preact/hooks';
import type { ModelSpec } from '@@/shared';
import { Dropped, FormFields } from '@/entrypoints/studio/parts/FormFields';
import { MakeFinal } from '@/entrypoints/studio/parts/MakeFinal';
import { TakeVideo } from '@/entrypoints/studio/parts/TakeVideo';
import { readinessProblems, useReadiness } from '@/lib/generate/reference-readiness';
import type { GenerateForm } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import type { StoryboardRecord } from '@/lib/storage/records/studio-records';
import { chainBlock, shotProblems } from '@/lib/studio/shot-chain';
import '@/lib/i18n/studio.en';


interface ShotEditorProps {
  board: StoryboardRecord;
  index: number;
  tasks: ReadonlyMap<string, TaskRecord>;
  models: readonly ModelSpec[];
  specOf: (id: string) => ModelSpec;
  allowHttp: boolean;
  assets: AssetRecord[];
  onForm: (form: GenerateForm) => void;
  onChain: (chain: boolean) => void;
}

/**
 * One shot: its prompt, references and model settings (the Generate form's fields and rules), the
 * chain toggle where the models allow it, and its takes. The form is edited here and saved as it
 * changes; the stored shot is read again only when another shot is opened (the view keys this
 * editor by the shot's id, so another shot is a new editor).
 */
export function ShotEditor({ board, index, tasks, models, specOf, allowHttp, assets, onForm, onChain }: ShotEditorProps) {
  const shot = board.shots[index]!;
  const n = index + 1;
  const [form, setForm] = useState<GenerateForm>(shot.form);
  const [dropped, setDropped] = useState<string[]>([]);

  const spec = specOf(form.model);
  const shots = board.shots.map((s, i) => (i === index ? { ...s, form } : s));
  const readiness = useReadiness(form, readinessClient);
  const problems = [...shotProblems(shots, index, spec, { allowHttp }), ...readinessProblems(form, spec, readiness)];
  const block = chainBlock(
    shots.map((s) => specOf(s.form.model)),
    index,
  );
  const change = (next: GenerateForm, lines?: string[]) => {
    setForm(next);
    if (lines) setDropped(lines);
    onForm(next);
  };

  return (
    <section class="shot-editor" aria-labelledby="shot-editor-title">
      <h2 id="shot-editor-title">{t('studio.shot.editing', { n })}</h2>
      <Dropped lines={dropped} onClose={() => setDropped([])} />
      <FormFields
        form={form}
        onForm={change}
        models={models}
        spec={spec}
        allowHttp={allowHttp}
        assets={assets}
        problems={problems}
        id="shot"
        promptLabel={t('studio.shot.prompt', { n })}
        promptTestId="shot-prompt"
      >
        {block === null ? (
          <div class="field studio-chain">
            <input id="shot-chain" type="checkbox" data-testid="chain-toggle" checked={shot.chain} aria-describedby="shot-chain-hint" onChange={(e) => onChain((e.currentTarget as HTMLInputElement).checked)} />
            <label for="shot-chain">{t('studio.chain.toggle')}</label>
            <p class="field__hint" id="shot-chain-hint">
              {t('studio.chain.hint')}
            </p>
          </div>
        ) : (
          block !== 'first-shot' && (
            <p class="studio-muted" data-testid="chain-unavailable">
              {block === 'model' ? t('studio.chain.model', { model: spec.label }) : t('studio.chain.previous-model', { model: specOf(shots[index - 1]!.form.model).label })}
            </p>
          )
        )}
      </FormFields>
      <h3>{t('studio.shot.takes', { n })}</h3>
      {shot.takes.length === 0 ? (
        <p class="empty-state" data-testid="empty-takes">{t('studio.shot.noTakes')}</p>
      ) : (
        <ol class="takes">
          {shot.takes.map((id, i) => {
            const task = tasks.get(id);
            if (!task) return null;
            const label = t('studio.player', { n: i + 1, shot: n });
            return (
              <li key={id} class="takes__item">
                <p class="takes__title">
                  {t('studio.take', { n: i + 1 })}
                  {shot.chosen === id && (
                    <span class="take__badge take__badge--chosen" data-testid="chosen-mark">
                      {t('studio.shot.chosen')}
                    </span>
                  )}
                </p>
                <TakeVideo task={task} label={label} />
                <MakeFinal task={task} spec={specOf(task.model)} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
