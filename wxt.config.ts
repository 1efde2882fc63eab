import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// The extension lives under extension/; WXT finds entrypoints in extension/entrypoints.
export default defineConfig({
  srcDir: 'extension',
  outDir: '.output',
  // Manifest-wide settings; host access to the proxy is requested at connect time, not here.
  manifest: {
    name: 'Arkbridge',
    description: 'Add web images, videos and audio to your team asset library and turn them into AI video.',
    permissions: ['storage', 'contextMenus', 'alarms', 'notifications', 'downloads'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
  },
  vite: () => ({ plugins: [preact()] }),
});
