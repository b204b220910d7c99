import type { FastifyInstance } from 'fastify';
import { FAVICON_SVG, STYLESHEET } from './styles.js';

/** The stylesheet changes with a release: browsers check it again after an hour. */
const STYLESHEET_CACHE = 'public, max-age=3600';
/** The icon does not change: a week. */
const ICON_CACHE = 'public, max-age=604800';

/**
 * The pages' stylesheet and icon, served by the server itself (no CDN). The icon is also the
 * `/favicon.ico` browsers ask for by themselves on any URL of the server (a JSON document, the
 * metadata), served as SVG, which every current browser takes whatever the name.
 */
export function serveAssets(app: FastifyInstance): void {
  app.get('/assets/gatehouse.css', async (_request, reply) =>
    reply
      .header('cache-control', STYLESHEET_CACHE)
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );
  for (const path of ['/assets/gatehouse.svg', '/favicon.ico'])
    app.get(path, async (_request, reply) =>
      reply
        .header('cache-control', ICON_CACHE)
        .header('x-content-type-options', 'nosniff')
        .type('image/svg+xml')
        .send(FAVICON_SVG),
    );
}
