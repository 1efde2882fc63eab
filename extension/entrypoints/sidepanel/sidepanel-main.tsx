import { render } from 'preact';
import { SidePanelApp } from '@/entrypoints/sidepanel/SidePanelApp';
import { currentLocale, loadBrowserLocale } from '@/lib/i18n/translate';
import '@/components/ui.css';
import '@/entrypoints/sidepanel/sidepanel.css';

/** `?tabId=N` pins the panel to one tab (tests open the panel as a page); else it follows the window's active tab. */
const pinned = /^\d{1,10}$/.exec(new URLSearchParams(location.search).get('tabId') ?? '')?.[0];

void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  render(<SidePanelApp fixedTabId={pinned === undefined ? undefined : Number(pinned)} />, document.getElementById('app')!);
});
