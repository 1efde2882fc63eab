import { render } from 'preact';
import { currentLocale, loadBrowserLocale } from '@/lib/i18n';
import { App } from './App';
import './style.css';

// The strings of the browser's language first (Simplified Chinese is its own small chunk).
void loadBrowserLocale().then(() => {
  document.documentElement.lang = currentLocale();
  render(<App />, document.getElementById('app')!);
});
