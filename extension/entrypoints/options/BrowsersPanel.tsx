import { useState } from 'preact/hooks';
import type { TokenInfo } from '@@/shared';
import { Banner, type BannerTone } from '@/components/Banner';
import { t } from '@/lib/i18n/translate';
import { connectedClient, handleUnauthorized } from '@/lib/proxy/connected-client';
import { isMissingRoute } from '@/lib/proxy/proxy-json';
import { CONNECT_WORDING, describeFailure, notConnected } from '@/lib/proxy/failure-message';
import { listTokens, revokeToken } from '@/lib/proxy/token-client';
import '@/lib/i18n/options.en';

type Note = { tone: BannerTone; text: string };

const day = (iso: string) => iso.slice(0, 10);

/**
 * The member's browsers: each token of the member (lib/proxy/token-client), this browser's marked,
 * the others revocable. Read when the member opens the section, not with the page.
 */
export function BrowsersPanel({ onRefused }: { onRefused: () => void }) {
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note | null>(null);

  async function run(step: (client: NonNullable<Awaited<ReturnType<typeof connectedClient>>>['client']) => Promise<void>) {
    setBusy(true);
    try {
      const connected = await connectedClient();
      if (!connected) return setNote({ tone: 'error', text: t('options.browsers.failed', { message: notConnected().message }) });
      await step(connected.client);
    } catch (error) {
      if (isMissingRoute(error)) return setNote({ tone: 'info', text: t('options.browsers.unsupported') });
      if (await handleUnauthorized(error)) onRefused();
      setNote({ tone: 'error', text: t('options.browsers.failed', { message: describeFailure(error, { wording: CONNECT_WORDING }).message }) });
    } finally {
      setBusy(false);
    }
  }

  const load = () => run(async (client) => setTokens(await listTokens(client)));

  const revoke = (token: TokenInfo) =>
    run(async (client) => {
      await revokeToken(client, token.id);
      setTokens(await listTokens(client));
      setNote({ tone: 'success', text: t('options.browsers.revoked', { label: token.label }) });
    });

  return (
    <section aria-labelledby="browsers-heading">
      <details onToggle={(event) => (event.currentTarget as HTMLDetailsElement).open && tokens === null && !busy && void load()}>
        <summary>
          <h2 id="browsers-heading" class="inline-heading">{t('options.browsers.heading')}</h2>
        </summary>
        <p class="lead">{t('options.browsers.hint')}</p>
        {tokens === null && busy && <p aria-busy="true">{t('options.browsers.loading')}</p>}
        {tokens && (
          <ul class="browsers">
            {tokens.map((token) => (
              <li key={token.id}>
                <strong>{token.label}</strong>
                {token.current && <span class="badge"> {t('options.browsers.this')}</span>}
                <br />
                <span class="lead">
                  {t('options.browsers.added', { date: day(token.createdAt) })} · {token.lastUsedAt ? t('options.browsers.lastUsed', { date: day(token.lastUsedAt) }) : t('options.browsers.neverUsed')}
                </span>
                {!token.current && (
                  <button type="button" disabled={busy} aria-label={t('options.browsers.revokeLabel', { label: token.label })} onClick={() => void revoke(token)}>
                    {t('options.browsers.revoke')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {note && (
          <Banner tone={note.tone} id="browsers-note">
            <p>{note.text}</p>
          </Banner>
        )}
      </details>
    </section>
  );
}
