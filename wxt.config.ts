import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

/**
 * Firefox only. What leaves the device goes to the team's own proxy: addresses of images, videos
 * and audio the member picks on web pages (and a name from the element's alt or title, or the page
 * title), or their bytes when the service cannot download them, screenshots and video frames of
 * pages, files the member chooses, prompts and reference URLs of generations, with the member's
 * token (issued by that proxy, sent back only to it). Firefox's category for pictures, videos, links and text of websites is
 * `websiteContent`; nothing is sent in the background about the pages visited (no history, no
 * activity). Required, since adding to the library is what the extension is for. `npm test` lints
 * the Firefox build (test/e2e/firefox-lint.test.ts).
 */
const FIREFOX_SETTINGS = {
  gecko: {
    id: 'arkbridge@arkbridge.dev',
    strict_min_version: '140.0',
    data_collection_permissions: { required: ['websiteContent'] },
  },
  gecko_android: { strict_min_version: '142.0' },
};

/**
 * Pages share many modules (the popup, side panel, options and studio all read storage and call the
 * proxy). Left to itself, Rollup cuts what they share into many small chunks, each with its own
 * import glue and compressed on its own: the popup's first paint was 20 files and about 3.5 KB gzip
 * heavier for it. Rollup merges chunks under 10 KB into a neighbour (measured: the popup's first
 * paint 10 files and 42.9 KB gzip instead of 20 and 44.1; the studio's 22.4 KB). A larger target
 * pulled the zh-CN strings into every first paint.
 */
const MIN_CHUNK_BYTES = 10_000;

/**
 * shared/ holds definitions only (schemas, tables, pure functions): a module none of whose exports a
 * page uses is left out, where Rollup would otherwise keep its top-level schema calls (valibot's
 * builders are calls it cannot prove pure) for any page importing the `shared` index.
 */
const SIDE_EFFECT_FREE = /\/shared\//;

// The extension lives under extension/; WXT finds entrypoints in extension/entrypoints.
export default defineConfig({
  srcDir: 'extension',
  // ARKBRIDGE_OUT_DIR: a private build folder (end-to-end tests build in parallel with other builds).
  outDir: process.env.ARKBRIDGE_OUT_DIR ?? '.output',
  // Static files (icons) live beside the code; WXT's default would be <root>/public.
  publicDir: 'extension/public',
  // Manifest-wide settings; host access to the proxy is requested at connect time, not here.
  manifest: ({ browser }) => ({
    name: 'Arkbridge',
    description: 'Add web images, videos and audio to your team asset library and turn them into AI video.',
    // `offscreen` (Chrome): uploads are sent from an offscreen document, where XMLHttpRequest counts
    // the bytes sent (lib/uploads/upload-transport); Firefox's background page has it already.
    // `identity`: "Sign in with your team account" runs the proxy's member sign-in in the browser's
    // identity flow (launchWebAuthFlow), which hands back a token for this browser (docs/identity.md).
    permissions: ['contextMenus', 'alarms', 'notifications', 'downloads', 'activeTab', 'scripting', 'identity', ...(browser === 'firefox' ? [] : ['offscreen'])],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    // The keyboard save (lib/background/keyboard-save). Alt+Shift+S suits both browsers' rules for a
    // suggested key (Chrome: Ctrl or Alt, never Ctrl+Alt, Shift optional; Firefox: a modifier other
    // than Shift, at most one more, then a key); on macOS Alt is Option. The member can change it
    // (chrome://extensions/shortcuts; Firefox's add-ons manager), and Chrome leaves it unset if taken.
    commands: {
      'save-to-last-group': {
        suggested_key: { default: 'Alt+Shift+S' },
        description: "Save the image, video or audio under the pointer (or the page's main image) to the last used group",
      },
    },
    // Firefox keeps an extension's storage (IndexedDB) only under a stable id. Its data collection
    // declaration (shown at install, docs/extension.md "Firefox") needs Firefox 140, on Android 142.
    ...(browser === 'firefox' ? { browser_specific_settings: FIREFOX_SETTINGS } : {}),
  }),
  vite: () => ({
    plugins: [preact()],
    // Only the pages' build takes chunks; the background and content scripts are one file each.
    build: { rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id) }, plugins: [{ name: 'arkbridge-min-chunk', outputOptions: (o) => (o.inlineDynamicImports ? o : { ...o, experimentalMinChunkSize: MIN_CHUNK_BYTES }) }] } },
  }),
});
