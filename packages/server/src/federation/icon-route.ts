import { ProblemError } from '@gatehouse/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Repository } from '../store/repository.js';
import type { ProviderSettings, UpstreamProvider } from './providers.js';

/**
 * GET /federation/icons/{id}: an upstream's icon from Gatehouse's own origin (upstream-icons.ts),
 * the only origin the pages' CSP lets images come from. The sign-in page names it with `v`, the
 * image's digest: that URL never changes content, so it is cached for a year; any other `v` is
 * answered the current image, not to be cached.
 */
export const ICONS_PATH = '/federation/icons';

/** A year, the longest a cache is asked to keep anything (RFC 9111 §5.2.2.1); `immutable`: RFC 8246. */
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';

/** The path the sign-in page shows a provider's icon at, when it has one. */
export function iconPathOf(provider: UpstreamProvider): string | undefined {
  const icon = provider.iconImage;
  return icon === undefined ? undefined : `${ICONS_PATH}/${provider.id}?v=${icon.version}`;
}

type IconRequest = FastifyRequest<{ Params: { id: string }; Querystring: { v?: string } }>;

export function serveUpstreamIcons(app: FastifyInstance, store: Repository): void {
  app.get(`${ICONS_PATH}/:id`, async (request: IconRequest, reply) => {
    const row = await store.findUpstreamProvider(request.params.id);
    const icon = row && (JSON.parse(row.settings) as ProviderSettings).iconImage;
    if (icon === undefined)
      throw new ProblemError('not_found', `There is no icon of an upstream '${request.params.id}'.`);
    return reply
      .header('cache-control', request.query.v === icon.version ? VERSIONED_CACHE : 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .type(icon.type)
      .send(Buffer.from(icon.data, 'base64'));
  });
}
