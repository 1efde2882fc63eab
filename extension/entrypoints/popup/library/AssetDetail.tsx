import { useEffect, useRef, useState } from 'preact/hooks';
import type { Asset } from '@@/shared';
import { Banner } from '@/components/Banner';
import { Field } from '@/components/Field';
import { AssetSourceInfo } from '@/entrypoints/popup/library/AssetSourceInfo';
import { Confirm } from '@/entrypoints/popup/library/Confirm';
import { useAssetSource } from '@/entrypoints/popup/library/use-asset-source';
import { SimilarAssets } from '@/entrypoints/popup/library/SimilarAssets';
import { ReadinessChip, StatusChip } from '@/entrypoints/popup/library/StatusChips';
import { captureNote, captureProgress } from '@/lib/capture/capture-note';
import { t } from '@/lib/i18n/translate';
import { checkAssetName, deleteAsset, renameAsset } from '@/lib/library/asset-actions';
import { canEditAssets } from '@/lib/library/group-access';
import { loadReadiness } from '@/lib/library/library-refresh';
import { readinessLines } from '@/lib/library/readiness-lines';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected, type Problem, problemOf } from '@/lib/proxy/failure-message';
import type { AssetRecord } from '@/lib/storage/records/asset-record';
import type { GroupRecord } from '@/lib/storage/records/group-record';

// "Use in Generate" (in LibraryView) needs the Generate form's rules: they come in this chunk, not
// in the Library's first paint.
export { addAssetToDraft } from '@/lib/generate/generate-draft';

interface AssetDetailProps {
  asset: AssetRecord;
  group: GroupRecord | undefined;
  onClose: () => void;
  /** Adds the asset to the Generate form and shows it; offered for Active assets. */
  onUse?: () => void;
}

type Readiness = { state: 'loading' } | { state: 'ready'; asset: Asset } | { state: 'error'; message: string } | { state: 'none' };

/** One asset: preview, status, per-model readiness (GetAsset, on opening only), rename, delete. */
export function AssetDetail({ asset, group, onClose, onUse }: AssetDetailProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const [readiness, setReadiness] = useState<Readiness>(asset.assetId ? { state: 'loading' } : { state: 'none' });
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(asset.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const source = useAssetSource(asset, group);

  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (!asset.assetId) return;
    const closed = new AbortController();
    setReadiness({ state: 'loading' });
    void (async () => {
      const connected = await connectedClient();
      if (closed.signal.aborted) return;
      if (!connected) return setReadiness({ state: 'error', message: notConnected().message });
      try {
        const detail = await loadReadiness(connected.client, asset.assetId!, closed.signal);
        if (!closed.signal.aborted) setReadiness({ state: 'ready', asset: detail });
      } catch (error) {
        if (closed.signal.aborted) return;
        const explained = await problemOf(error);
        setReadiness({ state: 'error', message: explained.message });
      }
    })();
    return () => closed.abort();
  }, [asset.assetId, asset.status]);

  async function rename() {
    if (busy) return;
    setProblem(null);
    const checked = checkAssetName(name);
    if (!checked.ok) {
      setNameError(checked.problem.message);
      nameInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected());
      const result = await renameAsset(connected.client, asset, name);
      if (result.ok) {
        setRenaming(false);
        setNameError(null);
        heading.current?.focus();
      } else if (result.problem.field) {
        setNameError(result.problem.message);
        nameInput.current?.focus();
      } else setProblem(result.problem);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setProblem(null);
    setBusy(true);
    try {
      const connected = asset.assetId ? await connectedClient() : null;
      if (asset.assetId && !connected) return setProblem(notConnected());
      const result = await deleteAsset(connected?.client ?? null, asset);
      if (result.ok) onClose();
      else {
        setConfirming(false);
        setProblem(result.problem);
      }
    } finally {
      setBusy(false);
    }
  }

  const sending = asset.status === 'Queued';
  // A group shared with the member to view: its assets are used, never changed (the proxy refuses it too).
  const editable = !group || canEditAssets(group);
  return (
    <article
      class="asset-detail"
      aria-labelledby="library-asset-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !renaming && !confirming) onClose();
      }}
    >
      <div class="library__bar">
        <button type="button" class="link" onClick={onClose}>
          {t('library.back')}
        </button>
      </div>
      <h2 id="library-asset-title" ref={heading} tabIndex={-1}>
        {asset.name}
      </h2>
      <p class="asset-detail__meta">
        <StatusChip status={asset.status} /> <span>{t(`library.assetType.${asset.type}`)}</span>
      </p>
      {group && <p class="muted">{group.name}</p>}
      {asset.status === 'Failed' && asset.error && <p class="asset-error">{asset.error}</p>}
      {asset.status !== 'Failed' && captureNote(asset) && (
        <p class="muted asset-detail__capture" role="status">
          {captureNote(asset)}
          {captureProgress(asset) !== null && <progress class="asset-detail__progress" max={1} value={captureProgress(asset)!} aria-label={captureNote(asset)!} />}
        </p>
      )}
      <div class="preview">
        {asset.type === 'Image' && <img src={asset.url} alt={asset.name} loading="lazy" />}
        {asset.type === 'Video' && <video src={asset.url} controls preload="metadata" aria-label={asset.name} />}
        {asset.type === 'Audio' && <audio src={asset.url} controls preload="metadata" aria-label={asset.name} />}
      </div>
      <p class="asset-detail__url">
        <a href={asset.url} target="_blank" rel="noreferrer noopener">
          {asset.url}
        </a>
      </p>
      {asset.assetId && (
        <p class="asset-detail__ref">
          <code>asset://{asset.assetId}</code>
        </p>
      )}

      <AssetSourceInfo source={source} />
      <SimilarAssets asset={asset} />

      <section aria-labelledby="library-readiness-title" aria-busy={readiness.state === 'loading' ? 'true' : 'false'}>
        <h3 id="library-readiness-title">{t('library.readiness.title')}</h3>
        {readiness.state === 'loading' && <p class="muted">{t('library.readiness.loading')}</p>}
        {readiness.state === 'none' && <p class="muted">{t(sending ? 'library.readiness.sending' : 'library.readiness.none')}</p>}
        {readiness.state === 'error' && <p class="muted">{t('library.readiness.failed', { message: readiness.message })}</p>}
        {readiness.state === 'ready' && (
          <ul class="readiness">
            {readinessLines(readiness.asset).map((line, i) => (
              <li key={i}>
                <ReadinessChip status={line.status} /> <span>{line.models.map((m) => m.label).join(', ')}</span>
                {line.message && line.status !== 'Active' && <span class="readiness__why"> — {line.message}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      {problem && (
        <Banner tone="error">
          <p>{problem.message}</p>
        </Banner>
      )}
      {renaming ? (
        <form
          noValidate
          aria-busy={busy ? 'true' : 'false'}
          onSubmit={(event) => {
            event.preventDefault();
            void rename();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              setRenaming(false);
            }
          }}
        >
          <Field id="library-asset-name" label={t('library.asset.name')} error={nameError}>
            {(control) => <input {...control} ref={nameInput} type="text" autoComplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? t('library.saving') : t('common.save')}
            </button>
            <button type="button" disabled={busy} onClick={() => setRenaming(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : confirming ? (
        <Confirm id="library-asset-delete" busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirming(false)}>
          <p>{t('common.confirmDelete', { name: asset.name })}</p>
        </Confirm>
      ) : (
        !sending && (
          <div class="actions">
            {onUse && asset.assetId && asset.status === 'Active' && (
              <button type="button" class="primary" onClick={onUse}>
                {t('library.asset.use')}
              </button>
            )}
            {editable && asset.assetId && (
              <button
                type="button"
                onClick={() => {
                  setName(asset.name);
                  setNameError(null);
                  setRenaming(true);
                  setTimeout(() => nameInput.current?.focus());
                }}
              >
                {t('library.asset.rename')}
              </button>
            )}
            {editable && (
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                {t('library.asset.delete')}
              </button>
            )}
          </div>
        )
      )}
      {sending && <p class="muted">{t('library.asset.stillSending')}</p>}
    </article>
  );
}
