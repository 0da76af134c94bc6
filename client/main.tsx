import { render } from 'preact';
import { App } from './app/app';

render(<App />, document.getElementById('app')!);
