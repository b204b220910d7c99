import { fetchImage, type StoredImage } from '../outbound/images.js';

/**
 * An upstream's icon, served by Gatehouse from its own origin (docs/federation.md, "Icons"): the
 * pages' CSP allows images from 'self' only, and no page loads anything from a third party. The
 * image is fetched once, when an entry's `icon` is configured or changed, through the SSRF-safe
 * fetch (the icon URL comes through the admin API too), then checked and stored with the entry.
 */

/** What an icon may weigh: a button's 16 px mark, drawn from at most a 1024 px image. */
export const ICON_MAX_BYTES = 64 * 1024;
const ICON_MAX_SIDE = 1024;

/** An icon as stored in a provider's settings. */
export type StoredIcon = StoredImage;

/** The icon at `url` (https, http on loopback, or data:image/), fetched and checked; refusals say what to fix. */
export function fetchUpstreamIcon(url: string): Promise<StoredIcon> {
  return fetchImage(url, { label: 'icon', maxBytes: ICON_MAX_BYTES, maxSide: ICON_MAX_SIDE });
}
