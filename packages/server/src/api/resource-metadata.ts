import type { FastifyInstance } from 'fastify';
import type { ApiDefinition } from './definition.js';
import { servedDocumentText } from './served-document.js';

/** Where the REST API is served; its resource identifier is the issuer followed by this. */
export const API_PREFIX = '/v2';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The URL of the REST API's protected resource metadata: the well-known path with the resource's
 * path after it (RFC 9728 §3.1), named in every 401 challenge of the API (§5.1).
 */
export function resourceMetadataUrl(issuer: string): string {
  return `${issuer}${WELL_KNOWN}${API_PREFIX}`;
}

/**
 * The scopes the served OpenAPI document's operations require, in document order: what the API
 * enforces, so nothing else has to list them.
 */
export function documentScopes(api: ApiDefinition, issuer: string): string[] {
  const served = JSON.parse(servedDocumentText(api.document, api.declarations, issuer)) as {
    paths?: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  };
  const scopes = new Set<string>();
  for (const item of Object.values(served.paths ?? {}))
    for (const operation of Object.values(item))
      for (const requirement of operation.security ?? [])
        for (const list of Object.values(requirement)) list.forEach((s) => scopes.add(s));
  return [...scopes];
}

/**
 * RFC 9728 §3: the protected resource metadata of the REST API, at the path-suffixed URL of its
 * resource identifier `{issuer}/v2`, and at the bare well-known URL for the resource identifier
 * `{issuer}` (a client that starts from the server's origin). Both name this server as the
 * authorization server; the resource value is the identifier the URL was formed from (§3.3).
 */
export function resourceMetadataRoutes(app: FastifyInstance, issuer: string, api: ApiDefinition): void {
  const describe = (resource: string) => ({
    resource,
    authorization_servers: [issuer],
    scopes_supported: documentScopes(api, issuer),
    // RFC 6750 §2.1 only: the API reads no token from a form body or the query.
    bearer_methods_supported: ['header'],
    resource_name: api.document.info.title,
  });
  for (const [path, resource] of [
    [WELL_KNOWN, issuer],
    [`${WELL_KNOWN}${API_PREFIX}`, `${issuer}${API_PREFIX}`],
  ] as const) {
    const document = describe(resource);
    app.get(path, async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(document));
  }
}
