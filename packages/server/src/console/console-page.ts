import type { FastifyInstance } from 'fastify';
import { allowOnly } from '../http/method-not-allowed.js';
import { sendPageUnder, type PagePolicy } from '../html/responses.js';
import { CONSOLE_PATH } from './console-client.js';
import type { ConsoleFiles } from './console-files.js';

/**
 * The console's policy: its own script and stylesheet only, requests to this server only (the
 * admin API, the token endpoint), no framing (`frame-ancestors 'none'`, RFC 9700 §4.4.1.9), no
 * `<base>`. No inline script or style.
 */
export const CONSOLE_POLICY: PagePolicy = { formAction: ["'self'"], scripts: ["'self'"], connect: ["'self'"] };

/** Built assets carry a content hash in their names: cached for a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * GET /console and every path below it: the console's page (its routes are the app's), and its
 * assets under /console/assets/. An asset that is not in the build is the site's 404.
 */
export function consolePage(app: FastifyInstance, files: ConsoleFiles): void {
  const page = async (_request: unknown, reply: Parameters<typeof sendPageUnder>[0]) =>
    sendPageUnder(reply, 200, files.page, CONSOLE_POLICY);
  app.get(CONSOLE_PATH, page);
  app.get<{ Params: { '*': string } }>(`${CONSOLE_PATH}/*`, async (request, reply) => {
    const path = request.params['*'];
    if (!path.startsWith('assets/')) return page(request, reply);
    const asset = files.assets.get(path.slice('assets/'.length));
    if (asset === undefined) return reply.callNotFound();
    return reply
      .header('cache-control', ASSET_CACHE)
      .header('x-content-type-options', 'nosniff')
      .type(asset.type)
      .send(asset.body);
  });
  allowOnly(app, CONSOLE_PATH, ['GET']);
  allowOnly(app, `${CONSOLE_PATH}/*`, ['GET']);
}
