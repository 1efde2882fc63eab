/**
 * Writes test/fixtures/media/sample-last-frame.png, the last frame of sample.mp4 decoded in
 * Chromium (WebCodecs through mediabunny), then regenerates the sandbox's embedded media. The
 * sandbox has no decoder: it serves this PNG as the last frame of every video it makes, which
 * always ends on the fixture's last frame (worker/sandbox/media/videos.ts).
 * Run: npx tsx scripts/last-frame.ts (needs Chromium: apt-get install -y chromium, or CHROMIUM_PATH)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { findChromium } from '../test/e2e/support/chromium';

const media = (name: string) => new URL(`../test/fixtures/media/${name}`, import.meta.url);

const bundled = (await build({
  configFile: false,
  logLevel: 'warn',
  build: {
    write: false,
    minify: false,
    lib: { entry: fileURLToPath(new URL('media/last-frame-page.ts', import.meta.url)), formats: ['iife'], name: 'lastFramePage' },
  },
})) as Rollup.RollupOutput[];
const script = bundled[0]!.output[0].code;

const browser = await chromium.launch({ executablePath: findChromium(), headless: true });
try {
  const page = await browser.newPage();
  // WebCodecs needs a secure context: the page is served as http://localhost, from here.
  await page.route('http://localhost/last-frame', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>last frame</title>' }),
  );
  await page.goto('http://localhost/last-frame');
  await page.addScriptTag({ content: script });
  const fixture = readFileSync(media('sample.mp4')).toString('base64');
  const frame = await page.evaluate(
    (base64) => (globalThis as unknown as { lastFrameOfFixture(b: string): Promise<{ width: number; height: number; joinedSeconds: number; agree: boolean; png: string }> }).lastFrameOfFixture(base64),
    fixture,
  );
  if (!frame.agree) throw new Error('the joined video does not end on the fixture’s last frame');
  writeFileSync(media('sample-last-frame.png'), Buffer.from(frame.png, 'base64'));
  console.log(`wrote test/fixtures/media/sample-last-frame.png: ${frame.width}x${frame.height}; a ${frame.joinedSeconds} s join in Chromium ends on the same frame`);
} finally {
  await browser.close();
}
execFileSync('npx', ['tsx', fileURLToPath(new URL('embed-media.ts', import.meta.url))], { stdio: 'inherit' });
