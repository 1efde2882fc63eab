import { useEffect, useState } from 'preact/hooks';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import type { Handoff } from '@/entrypoints/studio/handoff';
import { Dropped } from '@/entrypoints/studio/parts/FormFields';
import { ExportPanel, type MakeAgain } from '@/entrypoints/studio/storyboard/ExportPanel';
import { RunStatus } from '@/entrypoints/studio/storyboard/RunStatus';
import { ShotEditor } from '@/entrypoints/studio/storyboard/ShotEditor';
import { Timeline } from '@/entrypoints/studio/storyboard/Timeline';
import { type ShotAction, ShotList } from '@/entrypoints/studio/storyboard/ShotList';
import { useStudioModels } from '@/entrypoints/studio/use-studio-models';
import type { GenerateForm } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import { useDb } from '@/lib/popup/use-db';
import { assetStore } from '@/lib/storage/asset-store';
import type { RunMode, StoryboardRecord } from '@/lib/storage/records/studio-records';
import { announceChange } from '@/lib/storage/store-changes';
import { storyboardStore } from '@/lib/storage/storyboard-store';
import { formAtSize } from '@/lib/studio/export-sizes';
import { runPending } from '@/lib/studio/run-plan';
import { addShot, applyEdit, deleteShot, duplicateShot, moveShot, moveShotTo, newShot, newStoryboard, updateShot } from '@/lib/studio/storyboard-edit';
import { boardTasks, startRun, stopRun } from '@/lib/studio/run-driver';
import '@/entrypoints/studio/storyboard/storyboard.css';
import '@/lib/i18n/studio.en';

const BOARD_KEY = 'arkbridge.studio.board';
const readBoards = () => storyboardStore.all();
const readAssets = () => assetStore.all();

interface StoryboardViewProps {
  /** Settings reused from History: a new shot with them. */
  handoff: Handoff | null;
  onHandoffTaken: () => void;
}

/** The storyboard: its shots in order, the open shot's form and takes, running it, and exporting it. */
export function StoryboardView({ handoff, onHandoffTaken }: StoryboardViewProps) {
  const { models, specOf, allowHttp, info, failure } = useStudioModels();
  const boards = useDb(readBoards, ['storyboards']);
  const assets = useDb(readAssets, ['assets']) ?? [];
  const [boardId, setBoardId] = useState<string | null>(() => localStorage.getItem(BOARD_KEY));
  const [selected, setSelected] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [focus, setFocus] = useState<{ shotId: string; action: 'up' | 'down' } | null>(null);
  const board = boards?.find((b) => b.id === boardId) ?? boards?.[0] ?? null;
  // Read with the stored storyboard each time (a run links new takes to it without an edit).
  const tasks = useDb(async () => boardTasks((board && (await storyboardStore.get(board.id))) || { shots: [] }), ['tasks', 'storyboards'], [board?.id]) ?? new Map();
  const fallbackModel = models[0]?.id ?? '';

  const open = (id: string) => {
    localStorage.setItem(BOARD_KEY, id);
    setBoardId(id);
    setSelected(null);
  };
  async function create(form?: GenerateForm) {
    const made = newStoryboard(t('studio.board.defaultName', { n: (boards?.length ?? 0) + 1 }), form?.model ?? fallbackModel);
    if (form) made.shots = [newShot(form.model, form)];
    await storyboardStore.put(made);
    announceChange('storyboards');
    open(made.id);
    setSelected(made.shots[0]!.id);
  }
  const edit = async (change: Parameters<typeof applyEdit>[1], target: StoryboardRecord | null = board) => {
    if (!target) return;
    await storyboardStore.update(target.id, (current) => applyEdit(current, change, specOf));
    announceChange('storyboards');
  };

  // History's "Reuse these settings": a new shot at the end (or a first storyboard) with the form.
  useEffect(() => {
    if (!handoff || boards === undefined || !info) return;
    onHandoffTaken();
    setNotes(handoff.notes);
    if (!board) return void create(handoff.form);
    const shot = newShot(handoff.form.model, handoff.form);
    void edit((b) => ({ ...b, shots: [...b.shots, shot] })).then(() => setSelected(shot.id));
  }, [handoff, boards === undefined, Boolean(info)]);

  if (!info) return failure ? <Banner tone="error">{failure}</Banner> : <p aria-busy="true">{t('studio.loadingModels')}</p>;
  if (!models.length) return <Banner tone="warning">{t('studio.noModels')}</Banner>;
  if (!boards) return <p aria-busy="true">{t('app.loading')}</p>;

  async function act(action: ShotAction, shotId: string, index: number) {
    if (action === 'edit') return setSelected(shotId);
    if (action === 'up' || action === 'down') {
      await edit(moveShot(shotId, action === 'up' ? -1 : 1));
      // Focus follows the moved shot, so that moving it again is one more key press.
      return setFocus({ shotId, action });
    }
    if (action === 'duplicate') return edit(duplicateShot(shotId));
    if (action === 'delete') {
      if (!confirm(t('studio.shot.deleteConfirm', { n: index + 1 }))) return;
      if (selected === shotId) setSelected(null);
      return edit(deleteShot(shotId));
    }
    if (action === 'retry' && board) return startRun(board.id, board.runMode ?? 'all', [shotId]);
  }
  const run = (mode: RunMode) => board && void startRun(board.id, mode);
  // The export's "Make again at <size>": the shot at the storyboard's size, no longer choosing the
  // take of the other size, then a new take as Retry makes one.
  const makeAgain: MakeAgain = (shotId, size) => {
    const shot = board?.shots.find((s) => s.id === shotId);
    const form = shot && formAtSize(shot.form, size, specOf(shot.form.model));
    if (!board || !form) return null;
    return async () => {
      await edit(updateShot(shotId, ({ chosen: _chosen, ...rest }) => ({ ...rest, form })));
      await startRun(board.id, board.runMode ?? 'all', [shotId]);
    };
  };
  const index = board ? board.shots.findIndex((s) => s.id === (selected ?? board.shots[0]?.id)) : -1;

  return (
    <div class="storyboard">
      <div class="studio-bar">
        {boards.length > 0 && board && (
          <>
            <Field id="board-choose" label={t('studio.board.choose')}>
              {(control) => (
                <select {...control} value={board.id} onChange={(e) => open((e.currentTarget as HTMLSelectElement).value)}>
                  {boards.map((b) => (
                    <option key={b.id} value={b.id}>
                      {b.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="board-name" label={t('studio.board.name')}>
              {(control) => (
                <input {...control} value={board.name} maxLength={100} onChange={(e) => void edit((b) => ({ ...b, name: (e.currentTarget as HTMLInputElement).value.trim() || b.name }))} />
              )}
            </Field>
          </>
        )}
        {board && (
          <button type="button" data-testid="new-storyboard" onClick={() => void create()}>
            {t('studio.board.new')}
          </button>
        )}
        {board && (
          <button
            type="button"
            class="link"
            onClick={() => {
              if (!confirm(t('studio.board.deleteConfirm', { name: board.name }))) return;
              void storyboardStore.delete(board.id).then(() => announceChange('storyboards'));
            }}
          >
            {t('studio.board.delete')}
          </button>
        )}
      </div>
      <Dropped lines={notes} onClose={() => setNotes([])} />
      {!board ? (
        <div class="empty-state" data-testid="empty-storyboard">
          <p>{t('studio.board.none')}</p>
          <button type="button" class="primary" data-testid="new-storyboard" onClick={() => void create()}>
            {t('studio.board.new')}
          </button>
        </div>
      ) : (
        <>
          <div class="studio-bar">
            <button type="button" class="primary" data-testid="run-in-order" aria-describedby="run-order-hint" onClick={() => run('order')}>
              {t('studio.run.order')}
            </button>
            <button type="button" class="primary" data-testid="run-all" aria-describedby="run-all-hint" onClick={() => run('all')}>
              {t('studio.run.all')}
            </button>
            {runPending(board) && (
              <button type="button" data-testid="run-stop" onClick={() => void stopRun(board.id)}>
                {t('studio.run.stop')}
              </button>
            )}
          </div>
          <RunStatus board={board} tasks={tasks} />
          <p class="studio-muted" id="run-order-hint">
            {t('studio.run.orderHint')}
          </p>
          <p class="studio-muted" id="run-all-hint">
            {t('studio.run.allHint')}
          </p>
          <Timeline board={board} tasks={tasks} onMove={(shotId, to) => edit(moveShotTo(shotId, to))} />
          <div class="storyboard__columns">
            <div class="storyboard__shots">
              <ShotList board={board} tasks={tasks} selected={board.shots[index]?.id ?? null} focus={focus} specOf={specOf} allowHttp={allowHttp} onAction={(a, id, i) => void act(a, id, i)} />
              <button type="button" data-testid="add-shot" onClick={() => void edit(addShot(fallbackModel))}>
                {t('studio.shot.add')}
              </button>
            </div>
            {index >= 0 && (
              <ShotEditor
                key={board.shots[index]!.id}
                board={board}
                index={index}
                tasks={tasks}
                models={models}
                specOf={specOf}
                allowHttp={allowHttp}
                assets={assets}
                onForm={(form) => void edit(updateShot(board.shots[index]!.id, (s) => ({ ...s, form })))}
                onChain={(chain) => void edit(updateShot(board.shots[index]!.id, (s) => ({ ...s, chain })))}
              />
            )}
          </div>
          <ExportPanel board={board} tasks={tasks} makeAgain={makeAgain} />
        </>
      )}
    </div>
  );
}
