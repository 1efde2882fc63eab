import { render } from 'preact';
import { NewGroup } from '@/entrypoints/newgroup/NewGroup';
import { parseItem } from '@/entrypoints/newgroup/new-group-page';
import { currentLocale, loadBrowserLocale, t } from '@/lib/i18n/translate';
// The tokens and shared look first (tokens.css, ui.css), so the page's own rules build on them.
import '@/components/ui.css';
import '@/entrypoints/newgroup/newgroup.css';
import '@/lib/i18n/options.en';

const params = new URLSearchParams(location.search);
// The strings of the browser's language first (Simplified Chinese is its own small chunk).
void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  document.title = t('newgroup.pageTitle');
  render(<NewGroup item={parseItem(params)} />, document.getElementById('app')!);
});
