/**
 * The keyboard save end to end in Chromium: the built extension, connected to a proxy in front of
 * the sandbox, saves what is under the pointer of a real page (Chromium's own `:hover`, layout and
 * stacking) to the group last used from the context menu (before any, to the default group "Web
 * captures", made then), with the context menu's rules (largest srcset candidate, alt as the name,
 * the duplicate guard) and its queue; else the page's main image, else its og:image. The options
 * page shows the shortcut.
 *
 * A native command cannot be pressed in headless Chromium, and it is the press that grants
 * activeTab: the test calls the background's command handler through the service worker (as
 * capture.test.ts calls the menu handler), on a copy of the build that declares host access to the
 * test page's origin in place of that grant. The shipped manifest is unchanged.
 */
import { beforeAll, expect, test } from 'vitest';
import { axeViolations, describeViolations } from './support/axe';
import { clickMenu, connectThroughOptions, createGroupThroughProxy, readNotifications, readStore, recordNotifications, tabIdOf } from './support/extension';
import { useLocalStack } from './support/local-stack';

const GROUP_NAME = 'Keyboard test';


const stack = useLocalStack({ member: 'Keyboard tester', pageAccess: true });
const pageErrors: string[] = [];

beforeAll(async () => {
  expect(stack().manifest.commands['save-to-last-group'].suggested_key).toEqual({ default: 'Alt+Shift+S' });
  expect(stack().manifest.host_permissions).toBeUndefined();
});

const sw = () => stack().browser.serviceWorker;
const readAssets = () => readStore(stack().browser, 'assets');
const notifications = () => readNotifications(stack().browser);

/** The keyboard command in tab `tabId`, as the browser delivers it (with the tab). */
const press = (tabId: number) =>
  sw().evaluate(async (id) => {
    const scope = globalThis as unknown as {
      chrome: { tabs: { get(id: number): Promise<unknown> } };
      arkbridge: { onCommand(command: string, tab: unknown): Promise<void> };
    };
    await scope.arkbridge.onCommand('save-to-last-group', await scope.chrome.tabs.get(id));
  }, tabId);

test('the keyboard save puts what is under the pointer, else the main image, into the last used group', async () => {
  const { media, proxy, browser, memberToken } = stack();
  // --- Connect; the options page shows the shortcut. ---
  const options = await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  await expect.poll(() => options.locator('#save-shortcut').innerText()).toBe('Save to the last used group: Alt+Shift+S');
  expect(await options.getByText('No group used yet').count()).toBe(1);

  const groupId = await createGroupThroughProxy(options, proxy.url, memberToken, GROUP_NAME, 'Created by the keyboard save e2e test.');
  expect(await options.locator('#groups-note').innerText()).toContain('1 group loaded.');

  // --- The page, with a srcset on the image (2x: the JPEG), and a notification recorder. ---
  const page = await browser.context.newPage();
  const pageUrl = `${media.url}/page/${encodeURIComponent(GROUP_NAME)}`;
  await page.goto(pageUrl);
  await page.locator('#audio').waitFor({ state: 'attached' });
  await page.evaluate(() => document.getElementById('image')!.setAttribute('srcset', '/media/sample.png 1x, /media/sample.jpg 2x'));
  const tabId = await tabIdOf(browser, pageUrl);
  expect(tabId).toBeGreaterThanOrEqual(0);
  await recordNotifications(browser);
  const pointAt = async (selector: string) => {
    const box = (await page.locator(selector).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  };

  // --- No group used yet: the video goes to the default group, made now. ---
  await pointAt('#video');
  await press(tabId);
  expect((await notifications()).map((n) => n.title)).toEqual(['Saved to Web captures']);
  const [first] = await readAssets();
  expect(first).toMatchObject({ url: `${media.url}/media/sample.mp4`, type: 'Video' });
  const { Result } = await stack().asMember<{ Result: { Items: { Id: string; Name: string }[] } }>('/api/v3?Action=ListAssetGroups&Version=2024-01-01', {});
  expect(Result.Items.find((g) => g.Id === first!.groupId)?.Name).toBe('Web captures');

  // --- A save from the context menu makes the group the last used one. ---
  const audioUrl = `${media.url}/media/sample.mp3`;
  await clickMenu(browser, { menuItemId: `arkbridge-media/group:${groupId}`, mediaType: 'audio', srcUrl: audioUrl, pageUrl }, { id: tabId, title: GROUP_NAME });

  // --- The video under the pointer. ---
  await press(tabId);
  // --- The image under a transparent overlay: its largest srcset candidate, named by its alt. ---
  await page.evaluate(() => {
    const box = document.getElementById('image')!.getBoundingClientRect();
    const overlay = Object.assign(document.createElement('div'), { id: 'overlay' });
    Object.assign(overlay.style, { position: 'absolute', left: `${box.left + scrollX}px`, top: `${box.top + scrollY}px`, width: `${box.width}px`, height: `${box.height}px`, zIndex: '10' });
    document.body.append(overlay);
  });
  await pointAt('#overlay');
  expect(await page.evaluate(() => [...document.querySelectorAll(':hover')].at(-1)?.id)).toBe('overlay');
  await press(tabId);
  // --- Nothing under the pointer: the main image, the same one, is not added twice. ---
  await pointAt('h1');
  await press(tabId);
  // --- No image in view: the page's og:image. ---
  await page.evaluate(() => {
    for (const id of ['image', 'video', 'overlay']) document.getElementById(id)!.style.display = 'none';
    document.head.append(Object.assign(document.createElement('meta'), { content: '/media/sample.png?shared=og' }));
    document.head.lastElementChild!.setAttribute('property', 'og:image');
  });
  await press(tabId);

  const expected = [
    { url: audioUrl, type: 'Audio' },
    { url: `${media.url}/media/sample.mp4`, type: 'Video' },
    { url: `${media.url}/media/sample.jpg`, type: 'Image', name: 'Sample picture' },
    { url: `${media.url}/media/sample.png?shared=og`, type: 'Image', name: 'sample' },
  ];
  const recorded = (await readAssets()).filter((a) => a.groupId === groupId);
  expect(recorded.map((a) => a.url).sort()).toEqual(expected.map((e) => e.url).sort());
  for (const item of expected) expect(recorded.find((a) => a.url === item.url), item.url).toMatchObject({ groupId, ...item });
  // The video saved again, into another group than its first save: saved, and the member told where
  // the other one is (a near duplicate by address). The og:image (sample.png) is the same picture as
  // the JPEG saved just before at another address: saved, and told too (a near duplicate by pixels:
  // the background may read linked images here, so it hashes them). Compared as a set of titles: the
  // menu's and the keyboard's notices are raised from different paths. "Ready: …" notices depend on
  // when the sandbox finishes an asset, so they are left out.
  const titles = (await notifications()).map((n) => n.title).filter((title) => !title.startsWith('Ready: '));
  expect(titles.sort()).toEqual(
    [
      'Saved to Web captures',
      'Saved, but it may be a duplicate',
      'Saved, but it may be a duplicate',
      `Saved to ${GROUP_NAME}`,
      `Saved to ${GROUP_NAME}`,
      'Already in your library',
      `Saved to ${GROUP_NAME}`,
    ].sort(),
  );
  // Through the queue: each is created once with the service (it has its asset id).
  await expect.poll(async () => (await readAssets()).filter((a) => a.assetId).length, { timeout: 30_000 }).toBe(expected.length + 1);

  // --- The options page names the last used group. ---
  await options.reload();
  await expect.poll(() => options.getByText(`Last used group: ${GROUP_NAME}.`).count(), { timeout: 10_000 }).toBe(1);
  const violations = await axeViolations(options);
  expect(violations, `options page:\n${describeViolations(violations)}`).toEqual([]);
  expect(pageErrors).toEqual([]);
  await Promise.all([page.close(), options.close()]);
});
