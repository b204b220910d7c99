import type { Catalog } from './catalog.js';

/** ar: the messages of the pages and the prose of the error catalog's pages (catalog.ts). */
export const ar: Catalog = {
  messages: {},
  problems: {},
};
