import { useEffect, useRef, useState } from 'preact/hooks';
import { Banner, type BannerTone } from '@/components/Banner';
import { Field } from '@/components/Field';
import { checkConnectInput, checkProxy, type ConnectFieldErrors, type ConnectInput, connectionFrom } from '@/lib/connect/connect-check';
import { looksLikeLink, parseConnectLink } from '@/lib/connect/connect-link';
import { requestHostAccess } from '@/lib/connect/host-access';
import { accessSignInAvailable, signInWithAccess } from '@/lib/connect/member-signin';
import { normalizeProxyUrl, originPattern } from '@/lib/connect/proxy-url-rules';
import { t } from '@/lib/i18n/translate';
import type { Connection } from '@/lib/storage/records/setting-values';
import { getConnection, setConnection } from '@/lib/storage/stored-connection';
import '@/lib/i18n/options.en';

interface ConnectFormProps {
  initialProxyUrl: string;
  initialToken: string;
  /** Not connected (or the token was refused): whether the initial proxy signs members in is asked at once. */
  askSigninOnOpen?: boolean;
  /** A connection was checked and stored. */
  onConnected: (connection: Connection) => void | Promise<void>;
}

type Busy = null | 'test' | 'connect' | 'signin';
type Message = { tone: BannerTone; text: string };

/**
 * Proxy URL and member token, "Test connection" (check only) and "Connect" (check and store).
 * Host access to exactly the proxy origin is requested from the click, never as a blanket permission.
 * A connect link from the console (`<proxy>/connect#token=…`), pasted into its own field (or into
 * the token field), fills in both; the link leaves its field once read, since it holds the token.
 * When the proxy signs members in with the team's account (Cloudflare Access), "Sign in with your
 * team account" gets a token for this browser instead (lib/connect/member-signin), checked and
 * stored as a pasted one is. Whether it does is asked when a proxy URL is entered (its field's
 * change, a connect link) and as the form opens while not connected, never as each character is typed.
 */
export function ConnectForm({ initialProxyUrl, initialToken, askSigninOnOpen = false, onConnected }: ConnectFormProps) {
  const [proxyUrl, setProxyUrl] = useState(initialProxyUrl);
  const [token, setToken] = useState(initialToken);
  const [showToken, setShowToken] = useState(false);
  const [errors, setErrors] = useState<ConnectFieldErrors>({});
  const [busy, setBusy] = useState<Busy>(null);
  const [result, setResult] = useState<Message | null>(null);
  const [accessNote, setAccessNote] = useState<string | null>(null);
  const [link, setLink] = useState('');
  const [linkNote, setLinkNote] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);
  const tokenInput = useRef<HTMLInputElement>(null);
  /** The proxy origin that signs members in with the team's account, if the one entered does. */
  const [signinAt, setSigninAt] = useState<string | null>(null);
  const signinAsked = useRef<AbortController | null>(null);

  /** Asks the proxy at `url` whether it signs members in (the latest question wins). */
  function askSignin(url: string) {
    const origin = normalizeProxyUrl(url);
    signinAsked.current?.abort();
    if (!origin.ok) return setSigninAt(null);
    const asked = (signinAsked.current = new AbortController());
    void accessSignInAvailable(origin.url, undefined, asked.signal).then((available) => {
      if (!asked.signal.aborted) setSigninAt(available ? origin.url : null);
    });
  }

  useEffect(() => {
    if (askSigninOnOpen && initialProxyUrl) askSignin(initialProxyUrl);
    return () => signinAsked.current?.abort();
  }, []);

  /** Fills in the proxy URL and the token from a connect link read without fault. */
  function applyLink(read: ConnectInput) {
    setProxyUrl(read.proxyUrl);
    setToken(read.token);
    setLink('');
    setErrors({});
    setResult(null);
    setLinkNote(t('options.link.filled', { url: read.proxyUrl }));
    askSignin(read.proxyUrl);
  }

  function onLinkInput(event: Event & { currentTarget: HTMLInputElement }) {
    const value = event.currentTarget.value;
    setLink(value);
    setLinkNote(null);
    const read = value.trim() ? parseConnectLink(value) : null;
    if (read?.ok) return applyLink(read);
    // A paste or a drop is judged at once; typing when leaving the field or on Connect (or as it
    // mends an error already shown).
    const pasted = 'inputType' in event && String(event.inputType).startsWith('insertFrom');
    if (!read) setErrors(({ link: _cleared, ...rest }) => rest);
    else if (pasted || errors.link) setErrors({ ...errors, link: read.message });
  }

  function onLinkChange() {
    const read = link.trim() ? parseConnectLink(link) : null;
    if (read && !read.ok) setErrors({ ...errors, link: read.message });
  }

  /** The token field takes a whole connect link too: it is read as one. */
  function onTokenInput(value: string) {
    if (looksLikeLink(value)) {
      const read = parseConnectLink(value);
      if (read.ok) return applyLink(read);
    }
    setToken(value);
  }

  /** Runs in the click/submit handler itself: the permission prompt needs the user gesture. */
  function start(save: boolean) {
    if (busy) return;
    setResult(null);
    setAccessNote(null);
    let fields: ConnectInput = { proxyUrl, token };
    if (link.trim()) {
      // A link still in its field could not be read: say why there, and send nothing.
      const read = parseConnectLink(link);
      if (!read.ok) {
        setErrors({ link: read.message });
        linkInput.current?.focus();
        return;
      }
      applyLink(read);
      fields = read;
    }
    const checked = checkConnectInput(fields.proxyUrl, fields.token);
    if (!checked.ok) {
      setErrors(checked.errors);
      (checked.errors.proxyUrl ? urlInput : tokenInput).current?.focus();
      return;
    }
    setErrors({});
    setLinkNote(null);
    setProxyUrl(checked.value.proxyUrl);
    const access = requestHostAccess(checked.value.proxyUrl); // before any await
    setBusy(save ? 'connect' : 'test');
    void finish(checked.value, access, save).finally(() => setBusy(null));
  }

  /** "Sign in with your team account": the identity flow, then the token checked and stored. */
  function startSignin() {
    if (busy || !signinAt) return;
    const proxy = signinAt;
    setResult(null);
    setAccessNote(null);
    const access = requestHostAccess(proxy); // before any await
    setBusy('signin');
    void (async () => {
      const signed = await signInWithAccess(proxy);
      if (!signed.ok) return setResult({ tone: 'error', text: signed.message });
      setProxyUrl(proxy);
      setToken(signed.token);
      await finish({ proxyUrl: proxy, token: signed.token }, access, true);
    })().finally(() => setBusy(null));
  }

  async function finish(input: ConnectInput, access: Promise<boolean>, save: boolean) {
    // The prompt may stay open while the proxy is asked: requests work through its CORS either way.
    void access.then((granted) => {
      if (!granted) {
        setAccessNote(t('options.connect.accessDenied', { origin: originPattern(input.proxyUrl) }));
      }
    });
    const check = await checkProxy(input);
    if (!check.ok) {
      setResult({ tone: 'error', text: check.message });
      return;
    }
    if (!save) {
      setResult({ tone: 'success', text: t('options.connect.tested', { name: check.memberName }) });
      return;
    }
    const connection = connectionFrom(input, check, await getConnection());
    await setConnection(connection);
    // The connection state above the form now reads "Connected as <name>".
    await onConnected(connection);
  }

  return (
    <form
      noValidate
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => {
        event.preventDefault();
        start(true);
      }}
    >
      {signinAt && (
        <div class="signin">
          <p>{t('options.signin.hint')}</p>
          <div class="actions">
            <button type="button" class="primary" disabled={busy !== null} onClick={startSignin}>
              {busy === 'signin' ? t('options.signin.signingIn') : t('options.signin.button')}
            </button>
          </div>
        </div>
      )}
      <Field id="connect-link" label={t('options.link.label')} error={errors.link} hint={t('options.link.hint')}>
        {(control) => (
          <input
            {...control}
            ref={linkInput}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            value={link}
            onInput={onLinkInput}
            onChange={onLinkChange}
          />
        )}
      </Field>
      {linkNote && (
        <Banner tone="success" id="link-note">
          <p>{linkNote}</p>
        </Banner>
      )}
      <Field id="proxy-url" label={t('options.connect.proxyUrl')} error={errors.proxyUrl} hint={t('options.connect.proxyUrlHint')}>
        {(control) => (
          <input
            {...control}
            ref={urlInput}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellcheck={false}
            value={proxyUrl}
            onInput={(event) => setProxyUrl(event.currentTarget.value)}
            onChange={(event) => askSignin(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field id="member-token" label={t('options.connect.token')} error={errors.token} hint={t('options.connect.tokenHint')}>
        {(control) => (
          <div class="field__row">
            <input
              {...control}
              ref={tokenInput}
              type={showToken ? 'text' : 'password'}
              autoComplete="off"
              spellcheck={false}
              value={token}
              onInput={(event) => onTokenInput(event.currentTarget.value)}
            />
            <button type="button" aria-controls="member-token" onClick={() => setShowToken(!showToken)}>
              {showToken ? t('options.connect.hide') : t('options.connect.show')}
              <span class="visually-hidden">{t('options.connect.tokenSuffix')}</span>
            </button>
          </div>
        )}
      </Field>
      <div class="actions">
        <button type="button" disabled={busy !== null} onClick={() => start(false)}>
          {busy === 'test' ? t('options.connect.testing') : t('options.connect.test')}
        </button>
        <button type="submit" class="primary" disabled={busy !== null}>
          {busy === 'connect' ? t('options.connect.connecting') : t('options.connect.connect')}
        </button>
      </div>
      {result && (
        <Banner tone={result.tone} id="connect-result">
          <p>{result.text}</p>
        </Banner>
      )}
      {accessNote && (
        <Banner tone="info" id="access-note">
          <p>{accessNote}</p>
        </Banner>
      )}
    </form>
  );
}
