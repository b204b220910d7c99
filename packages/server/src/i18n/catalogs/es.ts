import type { Catalog } from './catalog.js';

/** es: the messages of the pages and the prose of the error catalog's pages (catalog.ts). */
export const es: Catalog = {
  messages: {},
  problems: {},
};
