import { render } from 'preact';
import { App } from './app.js';
import { readConfig } from './config.js';
import { chooseLocale, consoleText } from './i18n/index.js';
import { Session } from './session.js';
import './console.css';

const config = readConfig(document);
const text = consoleText(chooseLocale(navigator.languages));
document.documentElement.lang = text.locale;
document.documentElement.dir = text.dir;
document.title = text.t('console.title');
const root = document.getElementById('console');
if (root !== null) {
  root.textContent = '';
  render(<App session={new Session(config)} text={text} />, root);
}
