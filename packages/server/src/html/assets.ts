import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BRAND_ASSET_PATHS, type Brand, type BrandAsset } from './brand.js';
import { FAVICON_SVG, STYLESHEET } from './styles.js';

/** The stylesheet changes with a release: browsers check it again after an hour. */
const STYLESHEET_CACHE = 'public, max-age=3600';
/** The icon does not change: a week. */
const ICON_CACHE = 'public, max-age=604800';
/** A brand file named by its digest never changes content: a year (RFC 9111 §5.2.2.1), `immutable` (RFC 8246). */
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';

/**
 * The pages' stylesheet and icon, served by the server itself (no CDN). The icon is also the
 * `/favicon.ico` browsers ask for by themselves on any URL of the server (a JSON document, the
 * metadata), served as SVG, which every current browser takes whatever the name; the brand's
 * favicon replaces it there when one is set. The brand's files (BRAND_*) are served under
 * BRAND_ASSET_PATHS, their `v` the digest the pages name them by.
 */
export function serveAssets(app: FastifyInstance, brand: Brand): void {
  app.get('/assets/gatehouse.css', async (_request, reply) =>
    reply
      .header('cache-control', STYLESHEET_CACHE)
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );
  app.get('/assets/gatehouse.svg', async (_request, reply) => sendIcon(reply));
  app.get('/favicon.ico', async (request, reply) =>
    brand.favicon === undefined ? sendIcon(reply) : sendBrandAsset(request, reply, brand.favicon),
  );
  for (const which of ['stylesheet', 'logo', 'favicon'] as const) {
    const asset = brand[which];
    if (asset !== undefined)
      app.get(BRAND_ASSET_PATHS[which], async (request: VersionedRequest, reply) =>
        sendBrandAsset(request, reply, asset),
      );
  }
}

type VersionedRequest = FastifyRequest<{ Querystring: { v?: string } }>;

function sendIcon(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', ICON_CACHE)
    .header('x-content-type-options', 'nosniff')
    .type('image/svg+xml')
    .send(FAVICON_SVG);
}

/** A brand file: cached for a year under the URL the pages name (its digest), checked again under any other. */
function sendBrandAsset(request: FastifyRequest, reply: FastifyReply, asset: BrandAsset): FastifyReply {
  const { v } = request.query as { v?: string };
  return reply
    .header('cache-control', v === asset.version ? VERSIONED_CACHE : 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .type(asset.type)
    .send(asset.body);
}
