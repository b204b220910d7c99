/**
 * The brand every page shows: the product's name (in the header, the title and the footer), its
 * mark, and what an operator's brand adds (BRAND_*, branding/): a logo and a favicon served from
 * this origin, and a stylesheet of colours and extra rules. One value, passed to every page.
 */
export interface Brand {
  readonly name: string;
  /** The mark beside the name when there is no logo: inline SVG of presentation attributes, which the strict CSP allows. */
  readonly logoHtml: string;
  /** BRAND_LOGO_URL's image, served at BRAND_ASSET_PATHS.logo. */
  readonly logo?: BrandAsset;
  /** BRAND_FAVICON_URL's image, served at BRAND_ASSET_PATHS.favicon and /favicon.ico. */
  readonly favicon?: BrandAsset;
  /** The colours (BRAND_*_COLOR) and BRAND_CSS_FILE as one stylesheet, at BRAND_ASSET_PATHS.stylesheet. */
  readonly stylesheet?: BrandAsset;
}

/** A file of the brand, made at start and served as it is. */
export interface BrandAsset {
  /** Its media type. */
  readonly type: string;
  readonly body: Buffer;
  /** A digest of the body: the `v` of its URL, so that it may be cached for long. */
  readonly version: string;
}

/** Where the brand's files are served, under the pages' base path. */
export const BRAND_ASSET_PATHS = {
  stylesheet: '/assets/brand.css',
  logo: '/assets/brand-logo',
  favicon: '/assets/brand-icon',
} as const;

/** The URL of a brand file as the pages name it: its version in the query. */
export function brandAssetUrl(base: string, which: keyof typeof BRAND_ASSET_PATHS, asset: BrandAsset): string {
  return `${base}${BRAND_ASSET_PATHS[which]}?v=${asset.version}`;
}

export const GATEHOUSE_BRAND: Brand = {
  name: 'Gatehouse',
  logoHtml:
    '<svg class="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>',
};
