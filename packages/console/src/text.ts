import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { consoleText, type ConsoleText } from './i18n/index.js';

export const TextContext = createContext<ConsoleText>(consoleText('en'));

export function useText(): ConsoleText {
  return useContext(TextContext);
}
