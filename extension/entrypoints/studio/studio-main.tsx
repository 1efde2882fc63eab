import { render } from 'preact';
import { StudioApp } from '@/entrypoints/studio/StudioApp';
import { currentLocale, loadBrowserLocale } from '@/lib/i18n/translate';
import '@/components/ui.css';
import '@/entrypoints/studio/studio.css';

void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  render(<StudioApp />, document.getElementById('app')!);
});
