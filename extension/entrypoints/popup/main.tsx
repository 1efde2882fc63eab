import { render } from 'preact';
import { loadBrowserLocale } from '@/lib/i18n';
import { App } from './App';
import './style.css';

void loadBrowserLocale().then(() => render(<App />, document.getElementById('app')!));
