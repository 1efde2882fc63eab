import { useEffect, useState } from 'preact/hooks';
import { modelSpec, type ModelSpec } from '@@/shared';
import { cachedModels, loadModels } from '@/lib/generate/model-list';
import { t } from '@/lib/i18n/translate';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { notConnected } from '@/lib/proxy/failure-message';
import type { ModelsInfo } from '@/lib/storage/records/setting-values';
import { resumeSubmissions } from '@/lib/tasks/task-submit';
import '@/lib/i18n/studio.en';

/**
 * The models the member can generate with (the Generate form's list: `/v1/models` joined with the
 * proxy's catalog), asked once per studio page and shared by its views; the stored list paints first.
 */

export interface StudioModels {
  info: ModelsInfo | null;
  failure: string | null;
  models: ModelSpec[];
  allowHttp: boolean;
  /** The catalog entry of a model id: the proxy's, else the built-in one. */
  specOf: (id: string) => ModelSpec;
}

let loading: Promise<ModelsInfo> | null = null;
let known: ModelsInfo | null = null;

async function load(): Promise<ModelsInfo> {
  const connected = await connectedClient();
  if (!connected) throw new Error(notConnected().message);
  void resumeSubmissions(connected.client).catch(() => {});
  try {
    return (known = await loadModels(connected.client, Boolean(connected.connection.allowHttpMedia)));
  } catch (error) {
    await handleUnauthorized(error);
    throw error;
  }
}

/** Forgets the page's list (tests). */
export const forgetStudioModels = (): void => {
  loading = null;
  known = null;
};

export function useStudioModels(): StudioModels {
  const [info, setInfo] = useState<ModelsInfo | null>(known);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!known) void cachedModels().then((cached) => live && cached && setInfo((current) => current ?? cached));
    loading ??= load();
    loading.then(
      (fresh) => live && setInfo(fresh),
      (error: unknown) => {
        loading = null;
        if (live) setFailure(t('studio.modelsFailed', { message: error instanceof Error ? error.message : String(error) }));
      },
    );
    return () => void (live = false);
  }, []);
  const models = info?.models ?? [];
  return {
    info,
    failure,
    models,
    allowHttp: info?.allowHttp ?? false,
    specOf: (id) => models.find((m) => m.id === id) ?? modelSpec(id),
  };
}
