import type { MessageId } from './en.js';

/**
 * A locale's catalog file: its translations of the English messages (a message left out falls back
 * to English, and test/message-catalogs.test.ts lists it), and of the error catalog's prose for the
 * `/problems/` pages and the error pages, by page slug, in `problems/<locale>.ts` (English: the
 * contract's own text).
 */
export interface Catalog {
  readonly messages: { readonly [Id in MessageId]?: string };
  readonly problems: ProblemProseTable;
}

/** A locale's prose of the error catalog's pages, by page slug (`problems/<locale>.ts`). */
export interface ProblemProseTable {
  readonly [slug: string]: ProblemProse | undefined;
}

/** What a page says about one entry of the error catalog (packages/contract/src/errors), in plain text. */
export interface ProblemProse {
  readonly title: string;
  readonly summary: string;
  readonly action: string;
}
