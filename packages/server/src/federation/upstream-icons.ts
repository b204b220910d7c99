import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { safeFetch, SafeFetchError } from '../outbound/safe-fetch.js';
import { isLoopbackHost } from '../primitives/loopback.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';

/**
 * An upstream's icon, served by Gatehouse from its own origin (docs/federation.md, "Icons"): the
 * pages' CSP allows images from 'self' only, and no page loads anything from a third party. The
 * image is fetched once, when an entry's `icon` is configured or changed, through the SSRF-safe
 * fetch (the icon URL comes through the admin API too), then checked and stored with the entry.
 */

/** What an icon may weigh: a button's 16 px mark, drawn from at most a 1024 px image. */
export const ICON_MAX_BYTES = 64 * 1024;
const ICON_MAX_SIDE = 1024;
const ICON_TIMEOUT_MS = 5000;

/**
 * The image types served, by image-size's names: raster only. An SVG is a document that can carry
 * script; served from Gatehouse's origin, it would run there when opened on its own.
 */
const ICON_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
};

/** An icon as stored in a provider's settings. */
export interface StoredIcon {
  /** The URL it was fetched from (or the data: URL): a changed `icon` is fetched again. */
  readonly source: string;
  readonly type: string;
  /** The image, base64. */
  readonly data: string;
  /** The first 16 characters of its SHA-256 (base64url): the URL's `v`, so that it may be cached for long. */
  readonly version: string;
}

function refuse(message: string): never {
  throw new OperatorInputError(`icon: ${message}`);
}

/** The bytes behind an http(s) icon URL, through the SSRF-safe fetch; loopback only when the URL names it. */
async function fetchedBytes(url: string): Promise<Buffer> {
  const loopback = isLoopbackHost(new URL(url).hostname);
  try {
    const response = await safeFetch(url, {
      maxBytes: ICON_MAX_BYTES,
      timeoutMs: ICON_TIMEOUT_MS,
      accept: 'image/png, image/webp, image/gif, image/jpeg, image/x-icon;q=0.9',
      allowLoopbackHttp: true,
      allowAddresses: loopback ? ['127.0.0.0/8', '::1/128'] : [],
    });
    if (response.status !== 200) refuse(`${url} answered HTTP ${response.status}, not the image`);
    return response.body;
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    refuse(`${url} could not be fetched: ${error.message} (a data:image/ URL avoids the fetch)`);
  }
}

/** The bytes of a data: URL, decoded by the platform's fetch (WHATWG Fetch §4.2 data: URL processor). */
async function decodedBytes(url: string): Promise<Buffer> {
  if (url.length > ICON_MAX_BYTES * 2) refuse(`the data: URL is larger than ${ICON_MAX_BYTES} bytes`);
  try {
    return Buffer.from(await (await fetch(url)).arrayBuffer());
  } catch {
    refuse('the data: URL cannot be decoded');
  }
}

/** The icon at `url` (https, http on loopback, or data:image/), fetched and checked; refusals say what to fix. */
export async function fetchUpstreamIcon(url: string): Promise<StoredIcon> {
  const bytes = url.startsWith('data:') ? await decodedBytes(url) : await fetchedBytes(url);
  if (bytes.length > ICON_MAX_BYTES) refuse(`the image is larger than ${ICON_MAX_BYTES} bytes`);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    refuse('not an image (PNG, JPEG, GIF, WebP or ICO)');
  }
  const type = size.type === undefined ? undefined : ICON_TYPES[size.type];
  if (type === undefined) refuse(`a ${size.type ?? 'unknown'} image: PNG, JPEG, GIF, WebP or ICO only (no SVG)`);
  if (size.width > ICON_MAX_SIDE || size.height > ICON_MAX_SIDE)
    refuse(`${size.width}×${size.height} px: at most ${ICON_MAX_SIDE} px a side`);
  const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { source: url, type, data: bytes.toString('base64'), version };
}
