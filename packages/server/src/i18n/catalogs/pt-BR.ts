import type { Catalog } from './catalog.js';

/** pt-BR: the messages of the pages and the prose of the error catalog's pages (catalog.ts). */
export const ptBR: Catalog = {
  messages: {},
  problems: {},
};
