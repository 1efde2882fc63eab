import { render } from 'preact';
import { NewGroup } from './NewGroup';
import { parseItem, sessionKeyStore } from './new-group';
import './style.css';

const params = new URLSearchParams(location.search);
render(<NewGroup item={parseItem(params)} keys={sessionKeyStore(sessionStorage)} />, document.getElementById('app')!);
