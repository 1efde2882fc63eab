import { render } from 'preact';
import { currentLocale, loadBrowserLocale, t } from '@/lib/i18n';
import { NewGroup } from './NewGroup';
import { parseItem } from './new-group';
import './style.css';

const params = new URLSearchParams(location.search);
// The strings of the browser's language first (Simplified Chinese is its own small chunk).
void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  document.title = t('newgroup.pageTitle');
  render(<NewGroup item={parseItem(params)} />, document.getElementById('app')!);
});
