import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { missingConfig, type ProxySettings } from '../../infra/settings/proxy-settings';
import { accessConfigured } from '../../domain/admin/access-identity';
import type { ConsoleLang, Translate } from './console-i18n';

/** The console's page frame: header, navigation, the configuration status line, and the content. */

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export const PAGES = ['members', 'usage', 'tasks', 'audit', 'prices', 'budget', 'webhook', 'queue'] as const;
export type PageName = (typeof PAGES)[number];

export interface Frame {
  t: Translate;
  lang: ConsoleLang;
  env: ProxySettings;
  /** The signed-in page; none on the sign-in page. */
  page?: PageName;
  csrf?: string;
  title: string;
}

/** The CSRF token of the session, as every changing form carries it. */
export const csrfField = (csrf: string | undefined) => html`<input type="hidden" name="_csrf" value="${csrf ?? ''}">`;

function statusLine(f: Frame): Html {
  const missing = missingConfig(f.env);
  if (missing.length) return html`<p class="status status--bad" role="status">${f.t('status.incomplete', { names: missing.join(', ') })}</p>`;
  const access = accessConfigured(f.env) ? ` ${f.t('status.access', { domain: f.env.ACCESS_TEAM_DOMAIN! })}` : '';
  return html`<p class="status" role="status">${f.t('status.ok')}${access}</p>`;
}

export function page(f: Frame, content: Html): Html {
  const nav = f.page
    ? html`<nav aria-label="Console">
        <ul>
          ${PAGES.map((p) => html`<li><a href="/console/${p}"${p === f.page ? raw(' aria-current="page"') : ''}>${f.t(`nav.${p}`)}</a></li>`)}
        </ul>
      </nav>
      <span class="spacer"></span>
      <form method="post" action="/console/signout" class="inline">${csrfField(f.csrf)}<button type="submit" class="secondary">${f.t('nav.signout')}</button></form>`
    : html`<span class="spacer"></span>`;
  const other = f.lang === 'en' ? { lang: 'zh-CN', label: '中文' } : { lang: 'en', label: 'English' };
  return html`<!doctype html>
<html lang="${f.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${f.title} · ${f.t('title')}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/console.css">
</head>
<body>
<a class="skip" href="#main">${f.t('skip')}</a>
<header>
  <div class="bar">
    <span class="brand">${f.t('title')}</span>
    ${nav}
    <a href="?lang=${other.lang}" hreflang="${other.lang}" lang="${other.lang}">${other.label}</a>
  </div>
  ${f.page ? statusLine(f) : ''}
</header>
<main id="main">
${content}
</main>
</body>
</html>`;
}
