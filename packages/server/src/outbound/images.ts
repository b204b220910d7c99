import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { isLoopbackHost } from '../primitives/loopback.js';
import { OperatorInputError } from '../primitives/operator-input-error.js';
import { safeFetch, SafeFetchError } from './safe-fetch.js';

/**
 * An image an operator names by URL (an upstream's icon, the brand's logo and favicon), fetched
 * once and served by Gatehouse from its own origin: the pages' CSP allows images from 'self' only,
 * and no page loads anything from a third party. The URL is fetched through the SSRF-safe fetch,
 * then the bytes are checked: a raster image of a known type, within the limits given.
 */

/** An image as stored or served: where it came from, its type, its bytes and their digest. */
export interface StoredImage {
  /** The URL it was fetched from (or the data: URL): a changed URL is fetched again. */
  readonly source: string;
  readonly type: string;
  /** The image, base64. */
  readonly data: string;
  /** The first 16 characters of its SHA-256 (base64url): the URL's `v`, so that it may be cached for long. */
  readonly version: string;
}

/** What an image may be: its weight, its longest side, and the name refusals call it by (`icon`, `BRAND_LOGO_URL`). */
export interface ImageLimits {
  readonly label: string;
  readonly maxBytes: number;
  readonly maxSide: number;
  /**
   * Whether a URL naming a loopback host is fetched (an operator's own file server); true unless
   * false. A URL given by anyone (a client's registration) leads to public addresses only.
   */
  readonly allowLoopback?: boolean;
}

const IMAGE_TIMEOUT_MS = 5000;

/**
 * The image types served, by image-size's names: raster only. An SVG is a document that can carry
 * script; served from Gatehouse's origin, it would run there when opened on its own.
 */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
};

function refuser(limits: ImageLimits) {
  return (message: string): never => {
    throw new OperatorInputError(`${limits.label}: ${message}`);
  };
}

/** The bytes behind an http(s) URL, through the SSRF-safe fetch; loopback only when the URL names it. */
async function fetchedBytes(url: string, limits: ImageLimits): Promise<Buffer> {
  const refuse = refuser(limits);
  const loopback = limits.allowLoopback !== false && isLoopbackHost(new URL(url).hostname);
  try {
    const response = await safeFetch(url, {
      maxBytes: limits.maxBytes,
      timeoutMs: IMAGE_TIMEOUT_MS,
      accept: 'image/png, image/webp, image/gif, image/jpeg, image/x-icon;q=0.9',
      allowLoopbackHttp: loopback,
      allowAddresses: loopback ? ['127.0.0.0/8', '::1/128'] : [],
    });
    if (response.status !== 200) refuse(`${url} answered HTTP ${response.status}, not the image`);
    return response.body;
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    return refuse(`${url} could not be fetched: ${error.message} (a data:image/ URL avoids the fetch)`);
  }
}

/** The bytes of a data: URL, decoded by the platform's fetch (WHATWG Fetch §4.2 data: URL processor). */
async function decodedBytes(url: string, limits: ImageLimits): Promise<Buffer> {
  const refuse = refuser(limits);
  if (url.length > limits.maxBytes * 2) refuse(`the data: URL is larger than ${limits.maxBytes} bytes`);
  try {
    return Buffer.from(await (await fetch(url)).arrayBuffer());
  } catch {
    return refuse('the data: URL cannot be decoded');
  }
}

/** The image at `url` (https, http on loopback, or data:image/), fetched and checked; refusals say what to fix. */
export async function fetchImage(url: string, limits: ImageLimits): Promise<StoredImage> {
  const bytes = url.startsWith('data:') ? await decodedBytes(url, limits) : await fetchedBytes(url, limits);
  return checkedImage(bytes, url, limits);
}

/** `bytes` as an image to serve, when they are one within `limits`; refusals say what to fix. */
export function checkedImage(bytes: Buffer, source: string, limits: ImageLimits): StoredImage {
  const refuse = refuser(limits);
  if (bytes.length > limits.maxBytes) refuse(`the image is larger than ${limits.maxBytes} bytes`);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return refuse('not an image (PNG, JPEG, GIF, WebP or ICO)');
  }
  const type = size.type === undefined ? undefined : IMAGE_TYPES[size.type];
  if (type === undefined) return refuse(`a ${size.type ?? 'unknown'} image: PNG, JPEG, GIF, WebP or ICO only (no SVG)`);
  if (size.width > limits.maxSide || size.height > limits.maxSide)
    refuse(`${size.width}×${size.height} px: at most ${limits.maxSide} px a side`);
  const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { source, type, data: bytes.toString('base64'), version };
}
