import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { pickLanguage } from './console-i18n';

/**
 * `GET /connect`: where a member's connect link (`<proxy>/connect#token=<member token>`) lands
 * when opened in a browser. The token is in the fragment, which browsers never send: this page
 * only says what to do with the link. No script, the console's strict headers.
 */
export function connectPage(c: Context) {
  const zh = pickLanguage(c.req.query('lang'), undefined, c.req.header('accept-language')) === 'zh-CN';
  c.header('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  return c.html(html`<!doctype html>
<html lang="${zh ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Arkbridge</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/console/console.css"></head>
<body><main id="main">
${zh
  ? html`<h1>连接 Arkbridge 扩展</h1><p>这是你团队的 Arkbridge 连接链接。打开 Arkbridge 扩展的设置页，把整条链接粘贴到“连接链接”中，然后点击“连接”。</p><p>请勿分享此链接：它包含你的成员令牌。</p>`
  : html`<h1>Connect the Arkbridge extension</h1><p>This is your team’s Arkbridge connect link. Open the Arkbridge extension’s options page, paste the whole link into “Connect link”, and press Connect.</p><p>Do not share this link: it holds your member token.</p>`}
</main></body></html>`);
}

/** `GET /connect`, mounted at the Worker's root. */
export const connectRoutes = new Hono().get('/connect', connectPage);
