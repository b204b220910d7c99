import { isAbsolute } from 'node:path';
import { brandPalette, type BrandPalette } from './palette.js';

/**
 * The operator's brand as the environment sets it (docs/operating.md, "Branding"): checked when the
 * configuration is read, so that a colour that fails the contrast rule or a URL that cannot be an
 * image stops the server before it starts. The images and the stylesheet file are read at start
 * (load.ts).
 */
export interface BrandSettings {
  /** BRAND_NAME: the product's name on every page and in mails; Gatehouse when unset. */
  readonly name: string;
  /** BRAND_LOGO_URL: https, http on loopback, data:image/, file: or an absolute path. */
  readonly logoUrl?: string;
  /** BRAND_FAVICON_URL: the same kinds of URL. */
  readonly faviconUrl?: string;
  /** BRAND_PRIMARY_COLOR(_DARK) and BRAND_BACKGROUND_COLOR(_DARK), checked and derived. */
  readonly palette: BrandPalette;
  /** BRAND_CSS_FILE: rules added after the pages' own, served from this origin. */
  readonly cssFile?: string;
}

export const DEFAULT_BRAND_NAME = 'Gatehouse';
const MAX_NAME_LENGTH = 64;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const set = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

export function brandSettingsFromEnv(env: NodeJS.ProcessEnv): BrandSettings {
  const cssFile = set(env.BRAND_CSS_FILE);
  if (cssFile !== undefined && !isAbsolute(cssFile) && !cssFile.startsWith('.'))
    throw new Error(`BRAND_CSS_FILE must be a path to a file, got ${JSON.stringify(cssFile)}`);
  return {
    name: nameFrom(env.BRAND_NAME),
    logoUrl: imageUrlFrom('BRAND_LOGO_URL', env.BRAND_LOGO_URL),
    faviconUrl: imageUrlFrom('BRAND_FAVICON_URL', env.BRAND_FAVICON_URL),
    palette: brandPalette({
      primary: set(env.BRAND_PRIMARY_COLOR),
      primaryDark: set(env.BRAND_PRIMARY_COLOR_DARK),
      background: set(env.BRAND_BACKGROUND_COLOR),
      backgroundDark: set(env.BRAND_BACKGROUND_COLOR_DARK),
    }),
    cssFile,
  };
}

function nameFrom(value: string | undefined): string {
  const name = set(value);
  if (name === undefined) return DEFAULT_BRAND_NAME;
  if (CONTROL.test(name) || [...name].length > MAX_NAME_LENGTH)
    throw new Error(
      `BRAND_NAME must be one line of at most ${MAX_NAME_LENGTH} characters, got ${JSON.stringify(name)}`,
    );
  return name;
}

/** An image's URL: https, http (loopback only, checked when fetched), data:image/, file: or an absolute path. */
function imageUrlFrom(name: string, value: string | undefined): string | undefined {
  const url = set(value);
  if (url === undefined || isAbsolute(url)) return url;
  const ok = /^https?:\/\//i.test(url) ? URL.canParse(url) : /^data:image\//i.test(url) || /^file:\/\//i.test(url);
  if (!ok)
    throw new Error(
      `${name} must be an https URL, a data:image/ URL, or a file (file:///… or an absolute path), got ${JSON.stringify(url.slice(0, 80))}`,
    );
  return url;
}
