import { render } from 'preact';
import { App } from '@/entrypoints/options/OptionsApp';
import { currentLocale, loadBrowserLocale, t } from '@/lib/i18n/translate';
// The tokens and shared look first (tokens.css, ui.css), so the page's own rules build on them.
import '@/components/ui.css';
import '@/entrypoints/options/options.css';
import '@/lib/i18n/options.en';

// The strings of the browser's language first (Simplified Chinese is its own small chunk).
void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  document.title = t('options.title');
  render(<App />, document.getElementById('app')!);
});
