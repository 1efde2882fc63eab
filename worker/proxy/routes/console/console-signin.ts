import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { html } from 'hono/html';
import { sameSecret } from '../../../../shared';
import { ACCESS_HEADER, accessConfigured, tokenSigninAllowed, verifyAccess } from '../../domain/admin/access-identity';
import { SESSION_MS } from '../../domain/admin/console-sessions';
import { directoryObject } from '../../objects/handles';
import { SESSION_COOKIE } from '../admin/admin-auth';
import { formFields, formOf, isHttps, refused, render, type C, type ConsoleEnv } from './console-kit';

/**
 * Signing in to the console and out of it: the admin token (throttled per address) or Cloudflare
 * Access opens a session kept by the directory; every other page needs one (`consoleGate`).
 */

/** `/signin`: open to all. */
export const signinRoutes = new Hono<ConsoleEnv>();

function signinPage(c: C, message?: string, status = 200) {
  const t = c.var.t;
  const form = tokenSigninAllowed(c.env)
    ? html`<form method="post" action="/console/signin">
        <div class="field"><label for="token">${t('signin.token')}</label><input id="token" name="token" type="password" autocomplete="current-password" required></div>
        <button type="submit">${t('signin.submit')}</button>
      </form>`
    : html`<p>${t('signin.off')}</p>`;
  return render(c, t('signin.title'), html`<section class="signin">
      <h1>${t('signin.title')}</h1>
      ${message ? html`<p class="note note--bad" role="alert">${message}</p>` : ''}
      <p>${accessConfigured(c.env) ? t('signin.access') : ''} ${tokenSigninAllowed(c.env) ? t('signin.intro') : ''}</p>
      ${form}
    </section>`, undefined, status);
}

signinRoutes.get('/signin', (c) => signinPage(c));

signinRoutes.post('/signin', async (c) => {
  const t = c.var.t;
  if (c.req.header('origin') !== new URL(c.req.url).origin) return signinPage(c, t('error.csrf'), 403);
  if (!tokenSigninAllowed(c.env)) return signinPage(c, t('signin.off'), 403);
  const form = await formFields(c);
  if (!form) return signinPage(c, t('signin.failed'), 400);
  const token = form.token ?? '';
  const ok = Boolean(c.env.ADMIN_TOKEN) && token.length > 0 && token.length <= 512 && sameSecret(token, c.env.ADMIN_TOKEN);
  const source = c.req.header('cf-connecting-ip') ?? c.req.header('x-real-ip') ?? 'local';
  const attempt = await directoryObject(c.env).signinAttempt(source, ok);
  if (attempt === 'throttled') return signinPage(c, t('signin.throttled'), 429);
  if (attempt === 'failed') {
    // Logged without the attempted token.
    console.log(JSON.stringify({ event: 'console_signin_failed', source }));
    return signinPage(c, t('signin.failed'), 401);
  }
  const session = await directoryObject(c.env).openSession('admin');
  setCookie(c, SESSION_COOKIE, session.id, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
  return c.redirect('/console/members', 303);
});


/** Every other console route: a session, or a valid Access assertion (which opens one). */
export const consoleGate = createMiddleware<ConsoleEnv>(async (c, next) => {  const id = getCookie(c, SESSION_COOKIE);
  const session = id ? await directoryObject(c.env).session(id) : null;
  if (id && session) {
    c.set('signed', { id, actor: session.actor, csrf: session.csrf });
    return next();
  }
  const assertion = c.req.header(ACCESS_HEADER);
  if (assertion) {
    const identity = await verifyAccess(c.env, assertion);
    if (!identity.ok) return render(c, c.var.t('error.title'), html`<p class="note note--bad" role="alert">${c.var.t('error.forbidden')}</p>`, undefined, 403);
    const opened = await directoryObject(c.env).openSession(identity.email);
    setCookie(c, SESSION_COOKIE, opened.id, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
    c.set('signed', { id: opened.id, actor: identity.email, csrf: opened.csrf });
    return next();
  }
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.redirect('/console/signin', 303);
  return signinPage(c, undefined, 401);
});

/** `/signout`: behind the gate. */
export const signoutRoutes = new Hono<ConsoleEnv>();

signoutRoutes.post('/signout', async (c) => {
  if (!(await formOf(c))) return refused(c);
  await directoryObject(c.env).closeSession(c.var.signed.id);
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
  return c.redirect('/console/signin', 303);
});
