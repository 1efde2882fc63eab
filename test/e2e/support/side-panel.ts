/**
 * Driving the side panel ("Media on this page") in Chromium: a test page with every kind of media the
 * panel looks for, the panel opened as an extension page pinned to that page's tab, and its tiles
 * found by the address they list.
 */
import type { Locator, Page } from 'playwright-core';
import type { LaunchedExtension } from './chromium';
import { openExtensionPage } from './extension';

/**
 * Adds to the media server's `/page/<title>` (which shows sample.png, sample.mp4 and sample.mp3):
 * an image with a srcset (its 2x candidate is the JPEG), a `<picture><source>`, a CSS background,
 * an og:image, a small icon (sample.svg at its natural 64 × 64), a `data:` image drawn on a canvas
 * (320 × 200), and a video whose address is in a `<source>`. Waits until every image has loaded, so
 * that their natural sizes are known. Distinct query strings keep the addresses apart.
 */
export async function fillMediaPage(page: { evaluate(fn: () => Promise<void>): Promise<unknown> }): Promise<void> {
  await page.evaluate(async () => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 320, height: 200 });
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2456e8';
    context.fillRect(0, 0, 320, 200);
    context.fillStyle = '#f59e0b';
    context.fillRect(40, 40, 120, 120);
    document.body.insertAdjacentHTML(
      'beforeend',
      `<img id="srcset-image" src="/media/sample.png?srcset=1x" srcset="/media/sample.png?srcset=1x 1x, /media/sample.jpg?srcset=2x 2x" alt="Srcset picture" width="160">
      <picture><source srcset="/media/sample.jpg?picture=source" type="image/jpeg"><img id="picture-image" src="/media/sample.png?picture=fallback" alt="Picture element" width="160"></picture>
      <div id="hero" style="width: 200px; height: 100px; background-image: url('/media/sample.jpg?background=1'); background-size: cover"></div>
      <img id="icon" src="/media/sample.svg" alt="Icon" width="16" height="16">
      <img id="data-image" src="${canvas.toDataURL('image/png')}" alt="Embedded drawing" width="80">
      <video id="sourced-video" muted width="160"><source src="/media/sample.mp4?source=1" type="video/mp4"></video>`,
    );
    const og = document.createElement('meta');
    og.setAttribute('property', 'og:image');
    og.content = '/media/sample.png?og=1';
    document.head.append(og);
    await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((done) => img.addEventListener('load', done, { once: true })))));
  });
}

/** Opens the side panel's page as an extension tab, pinned to tab `tabId` (`?tabId=`), and waits for its grid. */
export async function openSidePanel(browser: LaunchedExtension, tabId: number, errors: string[]): Promise<Page> {
  const panel = await openExtensionPage(browser, `sidepanel.html?tabId=${tabId}`, errors);
  await panel.setViewportSize({ width: 420, height: 900 });
  await panel.locator('.pm-grid').waitFor({ state: 'attached', timeout: 15_000 });
  return panel;
}

/** The addresses the grid lists, in order (as the tiles' `data-url`, cut at 2,048 characters). */
export const listedUrls = (panel: Page): Promise<string[]> => panel.locator('.pm-tile').evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-url') ?? ''));

/** The tile listing `url` (a prefix for a data: address). */
export const tile = (panel: Page, url: string): Locator => panel.locator(url.startsWith('data:') ? `li.pm-tile[data-url^="${url}"]` : `li.pm-tile[data-url="${url}"]`);

/** The tile's save status ('' while none). */
export const tileStatus = async (panel: Page, url: string): Promise<string> => ((await tile(panel, url).locator('.pm-status').count()) ? tile(panel, url).locator('.pm-status').innerText() : '');
