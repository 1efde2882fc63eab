import { useState } from 'preact/hooks';
import type { ModelSpec } from '@@/shared';
import { Field } from '@/components/Field';
import { t } from '@/lib/i18n/translate';
import { ApiError } from '@/lib/proxy/api-failure';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import { tellBackground } from '@/lib/messaging/extension-messages';
import type { TaskRecord } from '@/lib/storage/records/task-record';
import { finalRequest, finalResolutions, isDraft } from '@/lib/studio/draft-final';
import { newTakeBeside } from '@/lib/studio/take-links';
import { submitTask } from '@/lib/tasks/task-submit';
import '@/lib/i18n/studio.en';

/**
 * "Make final" on a completed draft: the same request and seed, `draft` off, at the resolution
 * chosen. The final joins the draft's shot or batch.
 */
export function MakeFinal({ task, spec }: { task: TaskRecord; spec: ModelSpec }) {
  const choices = finalResolutions(spec);
  const [resolution, setResolution] = useState(() => (spec.defaults && choices.includes(spec.defaults.resolution) ? spec.defaults.resolution : (choices.at(-1) ?? '')));
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  if (!isDraft(task) || task.status !== 'completed' || !choices.length) return null;

  async function make() {
    setState({ busy: true, message: null });
    try {
      const connected = await connectedClient();
      if (!connected) return setState({ busy: false, message: notConnected().message });
      const localId = await newTakeBeside(task.localId);
      const { record } = await submitTask(connected.client, finalRequest(task.body, resolution), Date.now, { localId });
      void tellBackground({ type: 'arkbridge:sync' });
      setState({
        busy: false,
        message: record.status === 'failed' ? t('studio.final.refused', { message: record.error?.message ?? '' }) : t('studio.final.made', { resolution }),
      });
    } catch (error) {
      await handleUnauthorized(error);
      setState({ busy: false, message: t('studio.final.refused', { message: error instanceof ApiError ? error.message : String(error) }) });
    }
  }

  return (
    <div class="make-final">
      <Field id={`final-res-${task.localId}`} label={t('studio.final.resolution')}>
        {(control) => (
          <select {...control} value={resolution} onChange={(e) => setResolution((e.currentTarget as HTMLSelectElement).value)}>
            {choices.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="button" data-testid="make-final" disabled={state.busy} onClick={() => void make()}>
        {state.busy ? t('studio.final.making') : t('studio.final.make')}
      </button>
      {state.message && (
        <p class="studio-note" role="status">
          {state.message}
        </p>
      )}
    </div>
  );
}
