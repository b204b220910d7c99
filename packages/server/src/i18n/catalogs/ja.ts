import type { Catalog } from './catalog.js';

/** ja: the messages of the pages and the prose of the error catalog's pages (catalog.ts). */
export const ja: Catalog = {
  messages: {},
  problems: {},
};
