import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GATEHOUSE_BRAND, type Brand, type BrandAsset } from '../html/brand.js';
import { checkedImage, fetchImage, type ImageLimits, type StoredImage } from '../outbound/images.js';
import type { BrandSettings } from './settings.js';
import { paletteStylesheet } from './stylesheet.js';

/**
 * The brand made at start from its settings: the logo and the favicon fetched (or read) once and
 * checked as images, the stylesheet file read, the colours written out. A URL that cannot be
 * fetched, a file that cannot be read, or bytes that are not an image stop the start with an
 * error naming the setting.
 */

/** A logo is drawn 28 px high in the header: 256 KiB and 2048 px a side are plenty. */
const LOGO_LIMITS: ImageLimits = { label: 'BRAND_LOGO_URL', maxBytes: 256 * 1024, maxSide: 2048 };
const FAVICON_LIMITS: ImageLimits = { label: 'BRAND_FAVICON_URL', maxBytes: 64 * 1024, maxSide: 1024 };
const MAX_CSS_BYTES = 256 * 1024;

const digest = (body: Buffer): string => createHash('sha256').update(body).digest('base64url').slice(0, 16);

async function readSetting(name: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${name}: ${path} cannot be read (${why})`, { cause: error });
  }
}

async function imageAt(url: string, limits: ImageLimits): Promise<BrandAsset> {
  let image: StoredImage;
  try {
    if (/^https?:|^data:/i.test(url)) image = await fetchImage(url, limits);
    else {
      const path = url.startsWith('file:') ? fileURLToPath(url) : url;
      image = checkedImage(await readSetting(limits.label, path), url, limits);
    }
  } catch (error) {
    // A start error like the configuration's own: the refusal (an operator input error) names the setting.
    if (error instanceof Error && error.constructor !== Error) throw new Error(error.message, { cause: error });
    throw error;
  }
  return { type: image.type, body: Buffer.from(image.data, 'base64'), version: image.version };
}

async function stylesheetOf(settings: BrandSettings): Promise<BrandAsset | undefined> {
  const colours = paletteStylesheet(settings.palette);
  let extra = '';
  if (settings.cssFile !== undefined) {
    const bytes = await readSetting('BRAND_CSS_FILE', settings.cssFile);
    if (bytes.length > MAX_CSS_BYTES)
      throw new Error(`BRAND_CSS_FILE: ${settings.cssFile} is over ${MAX_CSS_BYTES} bytes`);
    extra = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (extra.includes('\uFFFD') || extra.includes('\0'))
      throw new Error(`BRAND_CSS_FILE: ${settings.cssFile} is not UTF-8 text`);
    extra = `/* BRAND_CSS_FILE */\n${extra}\n`;
  }
  if (colours === '' && extra === '') return undefined;
  const body = Buffer.from(`${colours}${extra}`, 'utf8');
  return { type: 'text/css; charset=utf-8', body, version: digest(body) };
}

/** The brand of `settings`, every file read and checked; Gatehouse's own when nothing is set. */
export async function loadBrand(settings: BrandSettings): Promise<Brand> {
  const [logo, favicon, stylesheet] = await Promise.all([
    settings.logoUrl === undefined ? undefined : imageAt(settings.logoUrl, LOGO_LIMITS),
    settings.faviconUrl === undefined ? undefined : imageAt(settings.faviconUrl, FAVICON_LIMITS),
    stylesheetOf(settings),
  ]);
  return {
    ...GATEHOUSE_BRAND,
    name: settings.name,
    ...(logo && { logo }),
    ...(favicon && { favicon }),
    ...(stylesheet && { stylesheet }),
  };
}
