import type { FastifyInstance } from 'fastify';
import { FAVICON_SVG, STYLESHEET } from './styles.js';

/** The pages' stylesheet and icon, served by the server itself (no CDN), cached for an hour. */
export function serveAssets(app: FastifyInstance): void {
  const cached = 'public, max-age=3600';
  app.get('/assets/gatehouse.css', async (_request, reply) =>
    reply
      .header('cache-control', cached)
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(STYLESHEET),
  );
  app.get('/assets/gatehouse.svg', async (_request, reply) =>
    reply
      .header('cache-control', cached)
      .header('x-content-type-options', 'nosniff')
      .type('image/svg+xml')
      .send(FAVICON_SVG),
  );
}
