import { render } from 'preact';
import { App } from '@/entrypoints/popup/PopupApp';
import { currentLocale, loadBrowserLocale } from '@/lib/i18n/translate';
// The tokens and shared look first (tokens.css, ui.css), so the page's own rules build on them.
import '@/components/ui.css';
import '@/entrypoints/popup/popup.css';

// The strings of the browser's language first (Simplified Chinese is its own small chunk).
void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  render(<App />, document.getElementById('app')!);
});
