import { useEffect, useState } from 'preact/hooks';
import { type Asset, type ModelSpec, readinessFor } from '@@/shared';
import { type FormProblem, type GenerateForm, toBody } from '@/lib/generate/generate-form';
import { t } from '@/lib/i18n/translate';
import { isGone } from '@/lib/proxy/api-failure';
import type { ProxyClient } from '@/lib/proxy/proxy-client';
import { describeParam } from '@/lib/tasks/task-presentation';
import '@/lib/i18n/generate.en';

/**
 * Per-model readiness of the library assets a Generate form references. An asset that is `Active`
 * may still be preparing for one model; the service refuses it then. Readiness comes with GetAsset
 * only, so it is asked for the assets the member picked (never for every asset in the picker), and
 * asked again every few seconds while one is still getting ready.
 */

export type AssetReadiness =
  | { state: 'known'; asset: Pick<Asset, 'Status' | 'ModelReadiness'>; at: number }
  /** The library no longer has it (deleted, or its group was). */
  | { state: 'gone'; at: number }
  /** Could not be asked (offline…): the proxy checks again on submit. */
  | { state: 'unknown'; at: number };

/** How soon an asset that is still getting ready is asked about again. */
export const RECHECK_MS = 5_000;

/** Not known yet, or known to be getting ready for `model`: worth asking again. */
const waiting = (entry: AssetReadiness | undefined, model: string): boolean =>
  entry?.state === 'known' ? readinessFor(entry.asset, model).usable === 'wait' : entry?.state !== 'gone';

const libraryIds = (form: GenerateForm): string[] => [...new Set(form.references.flatMap((r) => (r.source === 'library' && r.assetId ? [r.assetId] : [])))];

function problemOf(entry: AssetReadiness, spec: ModelSpec): string | null {
  if (entry.state === 'gone') return t('generate.readiness.gone');
  if (entry.state !== 'known') return null;
  const { status, message, usable } = readinessFor(entry.asset, spec.id);
  if (usable === 'now') return null;
  if (usable === 'wait') return t('generate.readiness.wait', { model: spec.label, status });
  return t('generate.readiness.never', { model: spec.label, status }) + (message ? ` ${message}` : '');
}

/** Problems of library references the model cannot use yet (or ever), each at its reference row. */
export function readinessProblems(form: GenerateForm, spec: ModelSpec, known: ReadonlyMap<string, AssetReadiness>): FormProblem[] {
  const body = toBody(form, spec);
  return form.references.flatMap((ref, index): FormProblem[] => {
    const entry = ref.source === 'library' && ref.assetId ? known.get(ref.assetId) : undefined;
    const reason = entry ? problemOf(entry, spec) : null;
    if (!reason) return [];
    const field = `content[${index + 1}]`;
    return [{ target: { kind: 'reference', index, id: ref.id }, field, reason, message: `${describeParam(field, body)}: ${reason}` }];
  });
}

/**
 * Keeps the readiness of the form's library assets: asks for a newly picked asset at once, and
 * again after RECHECK_MS for one that is not usable with the chosen model yet.
 */
export function useReadiness(form: GenerateForm, client: () => Promise<ProxyClient | null>, now: () => number = Date.now): ReadonlyMap<string, AssetReadiness> {
  const [known, setKnown] = useState<ReadonlyMap<string, AssetReadiness>>(new Map());
  const ids = libraryIds(form);
  const key = `${form.model}|${ids.join(',')}`;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const due = (id: string, current: ReadonlyMap<string, AssetReadiness>) => {
      const entry = current.get(id);
      return !entry || (waiting(entry, form.model) && now() - entry.at >= RECHECK_MS);
    };
    const check = async (current: ReadonlyMap<string, AssetReadiness>) => {
      const wanted = ids.filter((id) => due(id, current));
      const proxy = wanted.length ? await client() : null;
      if (stopped) return;
      let next = current;
      if (proxy) {
        const answers = await Promise.all(
          wanted.map(async (id): Promise<[string, AssetReadiness]> => {
            try {
              const asset = await proxy.library('GetAsset', { Id: id });
              return [id, { state: 'known', asset, at: now() }];
            } catch (error) {
              return [id, { state: isGone(error) ? 'gone' : 'unknown', at: now() }];
            }
          }),
        );
        if (stopped) return;
        next = new Map([...current, ...answers]);
        setKnown(next);
      }
      if (ids.some((id) => waiting(next.get(id), form.model))) {
        timer = setTimeout(() => void check(next), RECHECK_MS);
      }
    };
    void check(known);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [key]);

  return known;
}
