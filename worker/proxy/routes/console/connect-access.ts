import { Hono, type Context } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import { check, connectMethodsSchema, isExtensionRedirect, MEMBER_TOKENS_MAX, TOKEN_LABEL_MAX, tokenLabelField, type ConnectMethods } from '../../../../shared';
import { ACCESS_HEADER, memberAccessConfigured, verifyMemberAccess } from '../../domain/admin/access-identity';
import { browserLabel } from '../../domain/members/browser-label';
import type { ProxyEnv } from '../../infra/settings/proxy-env';
import { directoryObject, ledgerObject } from '../../objects/handles';
import { contextError } from '../answers';
import { errors, json, OPEN } from '../openapi/route-docs';

/**
 * Member sign-in with Cloudflare Access (docs/identity.md). `GET /connect/methods` tells the
 * extension, with no token, whether it is set up. `GET /connect/access`, behind the members' Access
 * application, checks the assertion Access adds (domain/admin/access-identity.ts), finds the member
 * by email (or enrols one, with ACCESS_AUTO_ENROLL=on), mints a token for this browser and hands it
 * to the extension's identity flow in the redirect's fragment, which browsers never send on.
 */
export const memberSigninRoutes = new Hono<{ Bindings: ProxyEnv }>();

/** Never cached, never sniffed, never sent on as a referrer: the answer may carry a token. */
function strict(c: Context) {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
}

memberSigninRoutes.get('/connect/methods', describeRoute({
  summary: 'How a member may connect a browser to this proxy: a pasted token, and whether Cloudflare Access sign-in is set up',
  tags: ['health'],
  security: OPEN,
  responses: { 200: json('`access` is true when `GET /connect/access` signs members in.', connectMethodsSchema) },
}), (c) => {
  strict(c);
  const methods: ConnectMethods = { token: true, access: memberAccessConfigured(c.env) };
  return c.json(methods);
});

const signinQuerySchema = v.object({
  redirect: v.pipe(
    v.string('is required: the extension identity flow\'s redirect URL'),
    v.check(isExtensionRedirect, 'must be a redirect URL of the extension identity flow (https://<id>.chromiumapp.org/... or https://<id>.extensions.allizom.org/...)'),
  ),
  label: v.optional(tokenLabelField),
});

/**
 * Whether the deployment lets this extension sign members in: when ALLOWED_ORIGINS names Chrome
 * extensions, a Chrome redirect (`https://<extension id>.chromiumapp.org/`) must be one of theirs,
 * so that another extension installed beside ours cannot have a token handed to it. Firefox's
 * redirect host is a hash of the extension's id, which the setting's `moz-extension://` origins
 * (one per installation) do not name: it is not narrowed.
 */
export function redirectAllowed(allowedOrigins: string | undefined, redirect: string): boolean {
  const chrome = (allowedOrigins ?? '').split(',').map((o) => /^chrome-extension:\/\/([a-p]{32})\/?$/.exec(o.trim())?.[1]).filter(Boolean);
  const id = /^https:\/\/([a-p]{32})\.chromiumapp\.org\//.exec(redirect)?.[1];
  return !id || !chrome.length || chrome.includes(id);
}

const REFUSALS = {
  unknown: [403, 'not_a_member', 'No member of this team has your email; ask your team\'s admin to add you with it.'],
  revoked: [403, 'member_revoked', 'Your membership of this team was revoked.'],
  expired: [401, 'token_expired', 'Your access to this proxy has expired; ask your team\'s admin to extend it.'],
  email: [403, 'email_not_accepted', 'Your team account\'s email is not one a member of this team can have (it must be an email address); ask your team\'s admin to add you.'],
  full: [409, 'too_many_tokens', `You already hold ${MEMBER_TOKENS_MAX} tokens; delete one in the extension's options (or ask your admin) and sign in again.`],
} as const;

memberSigninRoutes.get('/connect/access', describeRoute({
  summary: 'Member sign-in with Cloudflare Access: a new token for this browser, handed to the extension\'s redirect URL',
  description:
    'Behind the members\' Access application. The `Cf-Access-Jwt-Assertion` is checked as the console checks it (RS256 with the team\'s keys, issuer, audience `MEMBER_ACCESS_AUD`, not expired) and must carry `exp`. ' +
    'The member is found by email (letter case aside); with `ACCESS_AUTO_ENROLL=on` an unknown email becomes a new member. ' +
    'The answer is a 302 to `redirect` with `#token=<member token>` in the fragment.',
  tags: ['health'],
  security: [{ cloudflareAccess: [] }],
  parameters: [
    { in: 'query', name: 'redirect', required: true, description: 'The extension identity flow\'s redirect URL: `https://<id>.chromiumapp.org/...` or `https://<id>.extensions.allizom.org/...`.', schema: { type: 'string' } },
    { in: 'query', name: 'label', required: false, description: `The new token's label (1 to ${TOKEN_LABEL_MAX} characters); default: the browser and system from the User-Agent.`, schema: { type: 'string' } },
  ],
  responses: {
    302: { description: 'To `redirect#token=<member token>`.' },
    ...errors({
      400: '`invalid_parameter`: `redirect` is not an extension identity flow\'s URL, or `label` is refused; `param` names it.',
      401: '`unauthorized`: no Access assertion; `token_expired`: the member\'s scope has expired.',
      403: '`forbidden`: the assertion was refused; `not_a_member`: no member has the email (and no auto-enrolment); `email_not_accepted`: auto-enrolment of an email `POST /admin/members` would refuse; `member_revoked`.',
      404: '`member_signin_not_configured`: `ACCESS_TEAM_DOMAIN` or `MEMBER_ACCESS_AUD` is not set.',
      409: `\`too_many_tokens\`: the member already holds ${MEMBER_TOKENS_MAX}.`,
    }),
  },
}), async (c) => {
  strict(c);
  const answer = contextError(c);
  if (!memberAccessConfigured(c.env)) return answer(404, 'member_signin_not_configured', 'Member sign-in with Cloudflare Access is not set up on this proxy (ACCESS_TEAM_DOMAIN and MEMBER_ACCESS_AUD).');
  const query = check(signinQuerySchema, c.req.query(), 'query');
  if (!query.ok) return answer(400, 'invalid_parameter', query.problem.message, query.problem.field);
  if (!redirectAllowed(c.env.ALLOWED_ORIGINS, query.value.redirect)) {
    return answer(400, 'invalid_parameter', 'redirect: is the identity flow of an extension this proxy does not allow (ALLOWED_ORIGINS).', 'redirect');
  }
  const assertion = c.req.header(ACCESS_HEADER);
  if (!assertion) return answer(401, 'unauthorized', 'Sign in through your team\'s Cloudflare Access: this address must be behind the members\' Access application.');
  const identity = await verifyMemberAccess(c.env, assertion);
  if (!identity.ok) return answer(403, 'forbidden', `The Cloudflare Access assertion was refused (${identity.reason}).`);
  const label = query.value.label ?? browserLabel(c.req.header('user-agent'));
  const signedIn = await directoryObject(c.env).signIn(identity.email, label, c.env.ACCESS_AUTO_ENROLL === 'on');
  if ('refused' in signedIn) {
    const [status, code, message] = REFUSALS[signedIn.refused];
    return answer(status, code, message);
  }
  await ledgerObject(c.env).audit(identity.email, signedIn.enrolled ? 'member.enrol' : 'member.signin', signedIn.id, { label });
  return c.redirect(`${query.value.redirect}#token=${encodeURIComponent(signedIn.token)}`, 302);
});
