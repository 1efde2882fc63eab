import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

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
    permissions: ['contextMenus', 'alarms', 'notifications', 'downloads', 'activeTab', 'scripting'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    // Firefox keeps an extension's storage (IndexedDB) only under a stable id.
    ...(browser === 'firefox' ? { browser_specific_settings: { gecko: { id: 'arkbridge@arkbridge.dev', strict_min_version: '128.0' } } } : {}),
  }),
  vite: () => ({ plugins: [preact()] }),
});
