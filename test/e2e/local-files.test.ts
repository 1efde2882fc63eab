/**
 * Local files end to end in Chromium: the built extension, connected to a proxy in front of the
 * sandbox. In the popup, a PNG and an SVG are dropped onto a group's row (a DataTransfer of File
 * objects, with the drag events Chromium sends for a drag from the desktop) and an MP4 is picked
 * with "Add files…" in the open group. The PNG and the MP4 are uploaded through the proxy and become
 * Active assets; the SVG is refused before anything is sent and shows as a Failed item with the
 * reason. The grid then shows the new items with their thumbnails.
 *
 * Screenshots: test-results/screenshots/drop-target.png (files dragged over the group) and
 * library-thumbnails.png (the grid with the new items).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { axeViolations, describeViolations } from './support/axe';
import { REPO_ROOT } from './support/build-extension';
import { connectThroughOptions, openExtensionPage, readStore, uploadOf } from './support/extension';
import { dataTransferOf, dragFilesOver, dropFiles, fixtureFile } from './support/local-files';
import { useLocalStack } from './support/local-stack';
import type { AssetRecord } from '@/lib/storage/records/asset-record';

const SCREENSHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
const GROUP_NAME = 'Dropped files';
/** The popup's size in Chrome's toolbar. */
const POPUP_VIEWPORT = { width: 420, height: 600 };


const stack = useLocalStack({ member: 'Files tester' });
const pageErrors: string[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
});

/** A member call to the proxy. */
const member = <T>(path: string, body?: unknown) => stack().asMember<T>(path, body);

/** Waits until `count` records are final; answers them by name. */
async function settled(count: number): Promise<Map<string, AssetRecord>> {
  const deadline = Date.now() + 90_000;
  let rows: AssetRecord[] = [];
  while (Date.now() < deadline) {
    rows = await readStore(stack().browser, 'assets');
    if (rows.length === count && rows.every((r) => r.status === 'Active' || r.status === 'Failed')) return new Map(rows.map((r) => [r.name, r]));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not settled: ${JSON.stringify(rows.map((r) => [r.name, r.status, r.capture]))}`);
}

test('files dropped on a group and picked in it are uploaded and become Active; an SVG is refused, shown Failed, never sent', async () => {
  const { proxy, browser, memberToken } = stack();
  await connectThroughOptions(browser, proxy.url, memberToken, pageErrors);
  const { Result: group } = await member<{ Result: { Id: string } }>('/api/v3?Action=CreateAssetGroup&Version=2024-01-01', { Name: GROUP_NAME });

  const popup = await openExtensionPage(browser, 'popup.html', pageErrors);
  await popup.setViewportSize(POPUP_VIEWPORT);
  // The popup refreshes the library on opening: the new group is listed.
  const groupRow = popup.getByRole('listbox', { name: 'Groups' }).getByRole('option').filter({ hasText: GROUP_NAME });
  await groupRow.waitFor({ state: 'visible', timeout: 30_000 });

  // --- Dropped on the group's row: a PNG and an SVG, several at once. ---
  const dropped = dataTransferOf(popup, [await fixtureFile('sample.png', 'board.png', 'image/png'), await fixtureFile('sample.svg', 'logo.svg', 'image/svg+xml')]);
  await dragFilesOver(groupRow, await dropped);
  const target = popup.locator('.drop__target');
  await expect.poll(() => target.textContent()).toBe(`Drop files to add to ${GROUP_NAME}`);
  await popup.screenshot({ path: join(SCREENSHOTS, 'drop-target.png') });
  await dropFiles(groupRow, await dropped);
  await expect.poll(() => target.count()).toBe(0);
  // The group opens, where the items show.
  await popup.locator('#library-group-title').filter({ hasText: GROUP_NAME }).waitFor({ state: 'visible', timeout: 15_000 });

  // --- Picked in the open group with "Add files…": an MP4. ---
  // The picker arrives with its chunk on the click, and opens.
  const [chooser] = await Promise.all([popup.waitForEvent('filechooser', { timeout: 15_000 }), popup.getByRole('button', { name: 'Add files…' }).click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles([await fixtureFile('sample.mp4', 'clip.mp4', 'video/mp4')]);

  const rows = await settled(3);
  expect(rows.get('board.png')).toMatchObject({ groupId: group.Id, type: 'Image', status: 'Active', capture: { how: 'upload', reason: 'file' } });
  expect(rows.get('clip.mp4')).toMatchObject({ groupId: group.Id, type: 'Video', status: 'Active', capture: { how: 'upload', reason: 'file' } });
  expect(rows.get('logo.svg')).toMatchObject({ groupId: group.Id, status: 'Failed', error: expect.stringMatching(/not a type the library takes/) });
  // The proxy holds exactly the two uploads; the library's addresses are its signed ones.
  const { uploads } = await member<{ uploads: { id: string }[] }>('/proxy/uploads');
  expect(uploads.map((u) => u.id).sort()).toEqual([rows.get('board.png')!, rows.get('clip.mp4')!].map((r) => uploadOf(r)!.uploadId).sort());
  for (const name of ['board.png', 'clip.mp4']) expect(rows.get(name)!.url.startsWith(proxy.url)).toBe(true);

  // --- On screen, as a grid of thumbnails. ---
  await popup.getByRole('button', { name: 'Grid' }).click();
  const grid = popup.getByRole('listbox', { name: `Assets of ${GROUP_NAME}` });
  const tile = (name: string) => grid.getByRole('option').filter({ hasText: name });
  await expect.poll(() => tile('board.png').locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  expect(await tile('board.png').locator('.chip').count()).toBe(0);
  await expect.poll(() => tile('logo.svg').locator('.chip').textContent()).toBe('Failed');
  expect(await tile('logo.svg').textContent()).toMatch(/not a type the library takes/);
  expect(await tile('clip.mp4').locator('video').getAttribute('preload')).toBe('metadata');
  // The duration, read from the video's metadata (the service lists none).
  await expect.poll(() => tile('clip.mp4').locator('.tile__duration').textContent(), { timeout: 15_000 }).toBe('0:02');
  // A real frame as its thumbnail, not only the type icon: the video has a picture to show.
  await expect.poll(() => tile('clip.mp4').locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await popup.screenshot({ path: join(SCREENSHOTS, 'library-thumbnails.png') });
  const violations = await axeViolations(popup);
  expect(violations, describeViolations(violations)).toEqual([]);
  expect(pageErrors).toEqual([]);
});
