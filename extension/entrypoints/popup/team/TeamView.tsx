import { useEffect, useState } from 'preact/hooks';
import { type GalleryItem, modelSpec } from '@@/shared';
import { Banner } from '@/components/Banner';
import { StillVideo } from '@/components/StillVideo';
import { formatAmount } from '@/lib/format/money-display';
import { reuseRequest } from '@/lib/generate/generate-draft';
import { t } from '@/lib/i18n/translate';
import { connectedClient } from '@/lib/proxy/connected-client';
import { notConnected, problemOf } from '@/lib/proxy/failure-message';
import { listGallery, memberIdOf, unpublishTask } from '@/lib/proxy/gallery-client';
import '@/entrypoints/popup/team/team.css';
import '@/lib/i18n/team.en';

/** Items a page of the gallery asks for. */
export const GALLERY_PAGE = 10;

type Load = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

interface TeamViewProps {
  /** After "Reuse these settings" filled the Generate form: the popup shows Generate (absent: the side panel, which says where it went). */
  onReuse?: () => void;
}

/**
 * The Team tab: the team gallery, newest first, a page at a time (`next`). Each video plays from the
 * proxy's kept copy (metadata only until played), with who made it, the model, the prompt and the
 * cost; "Reuse these settings" fills the Generate form with its request; the member's own items can
 * be removed.
 */
export function TeamView({ onReuse }: TeamViewProps) {
  const [items, setItems] = useState<GalleryItem[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [me, setMe] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function page(before: string | null) {
    setLoad({ state: 'loading' });
    const connected = await connectedClient();
    if (!connected) return setLoad({ state: 'failed', message: notConnected().message });
    setMe(memberIdOf(connected.connection.token));
    try {
      const answer = await listGallery(connected.client, { limit: GALLERY_PAGE, before });
      setItems((shown) => (before ? [...shown, ...answer.items.filter((i) => !shown.some((s) => s.taskId === i.taskId))] : answer.items));
      setNext(answer.next);
      setLoad({ state: 'ready' });
    } catch (error) {
      setLoad({ state: 'failed', message: (await problemOf(error)).message });
    }
  }

  useEffect(() => void page(null), []);

  function reuse(item: GalleryItem) {
    if (!item.request) return;
    const reused = reuseRequest(item.request, item.model);
    const left = [...reused.dropped, ...(reused.inline ? [t('team.inlineDropped')] : [])];
    const said = [onReuse ? t('team.reused') : t('team.reusedSaved'), ...(left.length ? [t('team.reuseDropped', { items: left.join('; ') })] : [])].join(' ');
    setNotice(said);
    onReuse?.();
  }

  return (
    <div class="team">
      <div class="team__bar">
        <h2 id="team-title">{t('team.title')}</h2>
        <button type="button" onClick={() => void page(null)} disabled={load.state === 'loading'}>
          {t('team.refresh')}
        </button>
      </div>
      {notice && (
        <Banner tone="success">
          <p>{notice}</p>
        </Banner>
      )}
      {load.state === 'failed' && (
        <Banner tone="error">
          <p>{t('team.loadFailed', { message: load.message })}</p>
        </Banner>
      )}
      {load.state === 'loading' && items.length === 0 && (
        <p class="muted" role="status" aria-busy="true">
          {t('team.loading')}
        </p>
      )}
      {load.state === 'ready' && items.length === 0 && <p class="muted">{t('team.empty')}</p>}
      {items.length > 0 && (
        <ol class="gallery" aria-labelledby="team-title">
          {items.map((item) => (
            <GalleryEntry
              key={item.taskId}
              item={item}
              mine={item.member.id === me}
              onReuse={() => reuse(item)}
              onRemoved={() => {
                setItems((shown) => shown.filter((s) => s.taskId !== item.taskId));
                setNotice(t('team.removed'));
              }}
            />
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="team__more" disabled={load.state === 'loading'} onClick={() => void page(next)}>
          {load.state === 'loading' ? t('team.loading') : t('team.more')}
        </button>
      )}
    </div>
  );
}

const promptOf = (request: GalleryItem['request']): string => {
  if (!request) return '';
  if (typeof request.prompt === 'string') return request.prompt;
  const content = Array.isArray(request.content) ? (request.content as { type?: string; text?: unknown }[]) : [];
  const text = content.find((e) => e?.type === 'text')?.text;
  return typeof text === 'string' ? text : '';
};

function GalleryEntry({ item, mine, onReuse, onRemoved }: { item: GalleryItem; mine: boolean; onReuse: () => void; onRemoved: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const model = modelSpec(item.model).label;
  const who = mine ? t('team.you') : item.member.name;
  const prompt = promptOf(item.request);
  const titleId = `gallery-${item.taskId}-title`;

  async function remove() {
    setBusy(true);
    setProblem(null);
    try {
      const connected = await connectedClient();
      if (!connected) return setProblem(notConnected().message);
      await unpublishTask(connected.client, item.taskId);
      onRemoved();
    } catch (error) {
      setProblem(t('team.removeFailed', { message: (await problemOf(error)).message }));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li class="gallery__item" aria-labelledby={titleId}>
      <div class="gallery__head">
        <strong id={titleId}>{model}</strong>
        <span class="gallery__who">{t('team.madeBy', { name: who })}</span>
        <span class="gallery__cost" title={t('team.costTitle')}>
          {formatAmount(item.cost, item.currency)}
        </span>
      </div>
      {item.keptUrl ? (
        <StillVideo subject={{ key: item.taskId, url: item.keptUrl }} class="gallery__video" label={t('team.player', { name: who, model })} />
      ) : (
        <p class="muted">{t('team.noVideo')}</p>
      )}
      <p class="gallery__prompt">{prompt || t('team.noPrompt')}</p>
      <div class="gallery__actions">
        {item.request ? (
          <button type="button" class="primary" onClick={onReuse}>
            {t('team.reuse')}
          </button>
        ) : (
          <p class="muted">{t('team.noRequest')}</p>
        )}
        {mine && !confirming && (
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            {t('team.remove')}
          </button>
        )}
      </div>
      {confirming && (
        <div class="gallery__confirm" role="group" aria-label={t('team.remove')}>
          <p>{t('team.removeConfirm')}</p>
          <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
            {t('team.removeYes')}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      {problem && (
        <p class="gallery__error" role="alert">
          {problem}
        </p>
      )}
    </li>
  );
}
