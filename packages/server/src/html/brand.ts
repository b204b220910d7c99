/**
 * The brand every page shows: the product's name (in the header, the title and the footer) and its
 * mark. One value, so that an operator's brand (name, logo) replaces it in one place.
 */
export interface Brand {
  readonly name: string;
  /** The mark beside the name: inline SVG of presentation attributes, which the strict CSP allows. */
  readonly logoHtml: string;
}

export const GATEHOUSE_BRAND: Brand = {
  name: 'Gatehouse',
  logoHtml:
    '<svg class="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>',
};
