/**
 * The admin console (`/console`) end to end in Chromium, against a proxy and a sandbox started
 * here, driven as a person drives it (roles and labels): sign in with the admin token; add a
 * member and see the token once with its connect link and QR code; paste that link into the built
 * extension's options page and connect as the member; set the member's budget in its row; price a
 * model on Prices; a task of that member, followed by the proxy to completion, shows with its cost
 * on Tasks and changes the Usage chart and table; the audit log has the changes by "admin"; the
 * team budget is set and shown; a create waiting in the gateway's queue is listed on Queue with the
 * settings in force, and cancelled there; the Chinese rendering; sign out, and the console is closed again.
 *
 * Every page: no page or console errors, axe clean (WCAG 2 A/AA), the CSP header, and a screenshot
 * in test-results/screenshots/console-*.png.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TeamTask } from '../../shared';
import { startProxy, startSandbox, TEST_PROXY_SECRETS, type Server } from '../support/sandbox';
import { axeViolations, describeViolations } from './support/axe';
import { buildExtension, REPO_ROOT } from './support/build-extension';
import { launchExtension, type LaunchedExtension } from './support/chromium';
import { openExtensionPage } from './support/extension';

const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const MEMBER = 'Console tester';
const MODEL = 'doubao-seedance-2-0-260128';
/** CNY per second of output, set on the Prices page: a 5 s task costs 1.50 CNY. */
const PRICE = 0.3;

let sandbox: Server | undefined;
let proxy: Server | undefined;
let browser: LaunchedExtension | undefined;
/** The console's tab. */
let page: Page;
/** Page errors and console errors, of every page (console and extension), with where. */
const problems: string[] = [];
/** axe violations (WCAG 2 A/AA), by screen. */
const accessibility: string[] = [];
/** The document answers of the console's tab, newest last. */
const documents: Response[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  sandbox = await startSandbox();
  // A cap of one task running at the service: a second create waits in the gateway's queue (Queue page).
  proxy = await startProxy(sandbox.url, { UPSTREAM_MAX_RUNNING: '1' });
  // No WXT_DEFAULT_PROXY_URL: the connect link alone must fill in the proxy URL.
  browser = await launchExtension(await buildExtension());
  page = await browser.context.newPage();
  watch(page, 'console');
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') documents.push(response);
  });
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  await proxy?.stop().catch(() => {});
  await sandbox?.stop().catch(() => {});
});

/** The browser's own request for /favicon.ico (the proxy has none): not the page's doing. */
const isFavicon = (url: string) => new URL(url, 'http://x').pathname === '/favicon.ico';

/** Notes a page's console errors. */
function watchConsole(target: Page, label: string): void {
  target.on('console', (message) => {
    if (message.type() === 'error' && !isFavicon(message.location().url)) problems.push(`${label}: console error: ${message.text()} (${message.location().url})`);
  });
}

/** Notes a page's script errors and console errors. */
function watch(target: Page, label: string): void {
  target.on('pageerror', (error) => problems.push(`${label}: page error: ${error.message}`));
  watchConsole(target, label);
}

/** The screen as it stands: its answer had the CSP header, a screenshot, and axe's verdict. */
async function screen(name: string, target: Page = page): Promise<void> {
  await target.waitForLoadState('load');
  if (target === page) {
    const answer = documents.at(-1);
    expect(answer, `${name}: the page was answered`).toBeDefined();
    expect(answer!.status(), `${name}: ${answer!.url()}`).toBeLessThan(400);
    expect((await answer!.allHeaders())['content-security-policy'], `${name}: CSP of ${answer!.url()}`).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
  }
  await target.screenshot({ path: join(SCREENSHOTS, `console-${name}.png`), fullPage: true });
  const violations = await axeViolations(target);
  if (violations.length) accessibility.push(`${name}:\n${describeViolations(violations)}`);
}

const heading = (name: string | RegExp, target: Page = page) => target.getByRole('heading', { level: 1, name }).waitFor({ state: 'visible', timeout: 15_000 });
/** Follows a link of the console's navigation. */
async function nav(name: string, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
  await heading(title);
}
const saved = () => page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ state: 'visible', timeout: 15_000 });

async function admin<T>(path: string): Promise<T> {
  const response = await fetch(`${proxy!.url}${path}`, { headers: { Authorization: `Bearer ${TEST_PROXY_SECRETS.ADMIN_TOKEN}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** What the Usage page draws and lists: bars of the by-day chart (with their titles) and table rows. */
async function usageShown(): Promise<{ bars: string[]; rows: string[] }> {
  const chart = page.getByRole('img', { name: 'Cost by day, by member' });
  const table = page.locator('main table', { has: page.getByRole('columnheader', { name: 'Day', exact: true }) });
  return { bars: await chart.locator('rect title').allTextContents(), rows: await table.locator('tbody tr').allInnerTexts() };
}

let memberToken = '';
let connectLink = '';
let usageBefore: { bars: string[]; rows: string[] };

test('sign in with the admin token and see Members', async () => {
  await page.goto(`${proxy!.url}/console`);
  await heading('Sign in');
  expect(new URL(page.url()).pathname).toBe('/console/signin');
  await screen('01-signin');

  await page.getByLabel('Admin token').fill(TEST_PROXY_SECRETS.ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading('Members');
  expect(new URL(page.url()).pathname).toBe('/console/members');
  expect(await page.getByText('No members yet').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Members', exact: true }).getAttribute('aria-current')).toBe('page');
  await screen('02-members-empty');
});

test('add a member: the token once, with the connect link and its QR code', async () => {
  await page.getByLabel('Name', { exact: true }).fill(MEMBER);
  await page.getByRole('button', { name: 'Add member' }).click();
  await heading(`Token for ${MEMBER}`);
  memberToken = await page.getByLabel('Member token', { exact: true }).inputValue();
  connectLink = await page.getByLabel('Connect link', { exact: true }).inputValue();
  expect(memberToken).toMatch(/^abk_m[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
  expect(connectLink).toBe(`${new URL(proxy!.url).origin}/connect#token=${encodeURIComponent(memberToken)}`);
  expect(await page.getByRole('img', { name: 'Connect link as a QR code' }).isVisible()).toBe(true);
  expect(await page.locator('main').getByRole('status').innerText()).toContain('This token is shown once');
  await screen('03-token-once');

  // The link opened in a browser: a page saying where it goes (the token stays in the fragment).
  const landing = await browser!.context.newPage();
  watch(landing, 'connect page');
  const answer = await landing.goto(connectLink);
  expect(answer?.status()).toBe(200);
  expect((await answer!.allHeaders())['content-security-policy']).toMatch(/default-src 'none'/);
  await heading('Connect the Arkbridge extension', landing);
  expect(await landing.locator('main').innerText()).toContain('Connect link');
  await screen('04-connect-page', landing);
  await landing.close();
});

test('the connect link connects the extension as that member', async () => {
  const options = await openExtensionPage(browser!, 'options.html', problems, (p) => watchConsole(p, 'options page'));
  const link = options.getByLabel('Connect link');
  await link.waitFor({ state: 'visible', timeout: 15_000 });
  expect(await options.getByLabel('Proxy URL').inputValue()).toBe('');
  await link.fill(connectLink);
  expect(await options.getByLabel('Proxy URL').inputValue()).toBe(new URL(proxy!.url).origin);
  expect(await options.getByLabel('Member token').inputValue()).toBe(memberToken);
  expect(await link.inputValue()).toBe('');
  await options.getByRole('button', { name: 'Connect', exact: true }).click();
  await options.getByText(`Connected as ${MEMBER}`).waitFor({ state: 'visible', timeout: 30_000 });
  await screen('05-extension-connected', options);
  await options.close();
});

test('Members again: the token is not shown; the budget is set in the member\'s row', async () => {
  await page.goto(`${proxy!.url}/console/members`);
  await heading('Members');
  expect(await page.content()).not.toContain(memberToken);
  expect(await page.getByLabel('Member token').count()).toBe(0);
  const row = page.getByRole('row').filter({ hasText: MEMBER });
  expect(await row.count()).toBe(1);
  expect(await row.innerText()).toMatch(/no limit this month/);
  await screen('06-members');

  const budget = page.getByRole('form', { name: `Budget: ${MEMBER}` });
  await budget.getByLabel('Limit').fill('10');
  await budget.getByLabel('Period').selectOption({ label: 'this month' });
  await budget.getByLabel('Most tasks at once').fill('2');
  await budget.getByRole('button', { name: 'Save budget' }).click();
  await saved();
  const after = await page.getByRole('row').filter({ hasText: MEMBER }).innerText();
  expect(after).toContain('10.00 CNY this month');
  expect(after).toMatch(/\b0 \/ 2\b/);
  expect(await page.getByRole('form', { name: `Budget: ${MEMBER}` }).getByLabel('Limit').inputValue()).toBe('10');
  await screen('07-member-budget');
});

test('a price on Prices, a task of the member to completion: Tasks with its cost, Usage changed', async () => {
  await nav('Usage', 'Usage');
  usageBefore = await usageShown();
  expect(usageBefore.bars.filter((b) => b.includes(MEMBER))).toEqual([]);
  await screen('08-usage-before');

  await nav('Prices', 'Prices');
  const table = page.getByLabel('Price table (JSON)');
  const prices = JSON.parse(await table.inputValue()) as { currency: string; unit: string; models: Record<string, Record<string, number>> };
  expect(prices).toMatchObject({ currency: 'CNY', unit: 'million_tokens' });
  expect(await page.getByText(/Prices are per million output tokens/).isVisible()).toBe(true);
  // A per-second table of one model: the editor holds what GET /admin/prices answers, unit included.
  prices.unit = 'second';
  prices.models = { [MODEL]: { '*': PRICE } };
  await table.fill(JSON.stringify(prices, null, 2));
  await page.getByRole('button', { name: 'Save prices' }).click();
  await saved();
  expect(await page.getByText(/^Your table, set /).isVisible()).toBe(true);
  expect(await page.getByRole('row').filter({ hasText: MODEL }).filter({ hasText: `${PRICE} CNY` }).count()).toBe(1);
  await screen('09-prices');

  // A task of the member, through the proxy's API; the sandbox's clock moved past its generation.
  const created = await fetch(`${proxy!.url}/v1/video/generations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${memberToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: MODEL, prompt: 'x', duration: 5 }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const clock = await fetch(`${sandbox!.url}/sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 60 }) });
  expect(clock.status).toBe(200);
  // The proxy follows tasks every second here: wait until it has settled this one.
  const until = Date.now() + 60_000;
  let task: TeamTask | undefined;
  while (task?.status !== 'completed') {
    if (Date.now() > until) throw new Error(`the task was not settled in time: ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    task = (await admin<{ tasks: TeamTask[] }>('/admin/tasks')).tasks.find((t) => t.id === id);
  }
  expect(task).toMatchObject({ priced: true, cost: 5 * PRICE });

  await nav('Tasks', 'Tasks');
  const taskRow = page.getByRole('row').filter({ hasText: id });
  expect(await taskRow.count()).toBe(1);
  const cells = await taskRow.getByRole('cell').allInnerTexts();
  expect(cells.slice(0, 5)).toEqual([id, MEMBER, MODEL, 'completed', '1.50 CNY']);
  await screen('10-tasks');

  await nav('Usage', 'Usage');
  const usageAfter = await usageShown();
  const memberBars = usageAfter.bars.filter((b) => b.includes(MEMBER));
  expect(memberBars, `bars before: ${JSON.stringify(usageBefore.bars)}, after: ${JSON.stringify(usageAfter.bars)}`).toHaveLength(1);
  expect(memberBars[0]).toMatch(/: 1\.50$/);
  expect(usageAfter.bars.length).toBe(usageBefore.bars.length + 1);
  const memberRows = usageAfter.rows.filter((r) => r.includes(MEMBER) && r.includes(MODEL));
  expect(memberRows).toHaveLength(1);
  expect(memberRows[0]!.split('\t').slice(1)).toEqual([MEMBER, MODEL, '1', '1', '0', '5', '1.50 CNY', expect.stringMatching(/^\d+$/)]);
  expect(usageAfter.rows.length).toBe(usageBefore.rows.length + 1);
  expect(await page.getByRole('img', { name: 'Cost by day, by member' }).isVisible()).toBe(true);
  expect(await page.locator('.legend').innerText()).toContain(MEMBER);
  await screen('11-usage-after');
});

test('the audit log has the changes, by admin', async () => {
  await nav('Audit log', 'Audit log');
  for (const action of ['member.add', 'budget.set', 'prices.set']) {
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell', { name: action, exact: true }) });
    expect(await rows.count(), action).toBeGreaterThanOrEqual(1);
    expect((await rows.first().getByRole('cell').allInnerTexts())[1], `actor of ${action}`).toBe('admin');
  }
  const added = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'member.add', exact: true }) });
  expect(await added.innerText()).toContain(MEMBER);
  await screen('12-audit');
});

test('Team budget: set and shown', async () => {
  await nav('Team budget', 'Team budget');
  expect(await page.getByText(/spent, .* reserved this month; no limit\./).isVisible()).toBe(true);
  await page.getByLabel('Limit (CNY)').fill('100');
  await page.getByLabel('Period').selectOption({ label: 'this month' });
  await page.getByRole('button', { name: 'Save team budget' }).click();
  await saved();
  expect(await page.getByText('1.50 CNY spent, 0.00 CNY reserved, 98.50 CNY left this month.').isVisible()).toBe(true);
  expect(await page.getByLabel('Limit (CNY)').inputValue()).toBe('100');
  await screen('13-team-budget');
});

test('Queue: a create waiting for the service, with the settings in force; Cancel', async () => {
  const create = (headers: Record<string, string>) =>
    fetch(`${proxy!.url}/v1/video/generations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${memberToken}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ model: MODEL, prompt: 'queued', duration: 5 }),
    });
  const running = await create({});
  expect(running.status, await running.clone().text()).toBe(200);
  const queued = await create({ Prefer: 'respond-async' });
  expect(queued.status, await queued.clone().text()).toBe(202);
  const { id } = (await queued.json()) as { id: string };

  await nav('Queue', 'Queue');
  expect(await page.locator('dl').innerText()).toMatch(/UPSTREAM_MAX_RUNNING\)\s+1\s+Running at the service now\s+1\s+Backing off until\s+not backing off/);
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Cancel ${id}` }) });
  expect((await row.getByRole('cell').allInnerTexts()).slice(0, 4)).toEqual(['1', MEMBER, MODEL, 'queued']);
  await screen('14-queue');

  await row.getByRole('button', { name: `Cancel ${id}` }).click();
  await page.getByRole('status').filter({ hasText: `Cancelled ${id}` }).waitFor({ state: 'visible', timeout: 15_000 });
  expect(await page.getByRole('button', { name: `Cancel ${id}` }).count()).toBe(0);
  expect(await page.getByRole('row').filter({ hasText: 'cancelled' }).count()).toBe(1);
  await screen('15-queue-cancelled');
});

test('in Simplified Chinese', async () => {
  await page.goto(`${proxy!.url}/console/members?lang=zh-CN`);
  await heading('成员');
  expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
  expect(await page.getByRole('navigation', { name: 'Console' }).innerText()).toContain('团队预算');
  expect(await page.getByRole('button', { name: '保存预算' }).isVisible()).toBe(true);
  await screen('16-members-zh-CN');
  // Back to English (the choice is kept in a cookie).
  await page.goto(`${proxy!.url}/console/members?lang=en`);
  await heading('Members');
});

test('sign out: the sign-in page, and the console is closed', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await heading('Sign in');
  expect(new URL(page.url()).pathname).toBe('/console/signin');
  await screen('17-signed-out');
  await page.goto(`${proxy!.url}/console/members`);
  await heading('Sign in');
  expect(new URL(page.url()).pathname).toBe('/console/signin');
});

test('no page or console errors, and axe found nothing, on any page', () => {
  expect(problems).toEqual([]);
  expect(accessibility, `accessibility problems (axe, WCAG 2 A/AA):\n${accessibility.join('\n')}`).toEqual([]);
});
