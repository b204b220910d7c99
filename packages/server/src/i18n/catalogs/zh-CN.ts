import type { Catalog } from './catalog.js';

/** zh-CN: the messages of the pages and the prose of the error catalog's pages (catalog.ts). */
export const zhCN: Catalog = {
  messages: {},
  problems: {},
};
