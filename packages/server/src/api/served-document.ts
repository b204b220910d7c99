/**
 * The document served at /v2/openapi.json: the document the server validates with
 * (document-enrichment.ts) plus what depends on where it runs: `servers` (this server's /v2) and
 * the OAuth 2.0 security scheme with each operation's requirement. Serialised once, at startup.
 */
import type { CollectionDeclaration, HttpMethod } from '@gatehouse/contract';
import { SECURITY_SCHEME, securityScheme } from '../json-api/document-parts.js';

type Json = Record<string, unknown>;

/** The served document as JSON text. */
export function servedDocumentText(
  document: object,
  collections: readonly CollectionDeclaration[],
  issuer: string,
): string {
  const served = structuredClone(document) as Json;
  served['servers'] = [{ url: `${issuer}/v2`, description: 'This Gatehouse server' }];
  const components = (served['components'] ??= {}) as Json;
  const schemes = (components['securitySchemes'] ??= {}) as Json;
  schemes[SECURITY_SCHEME] = securityScheme(issuer, collections);
  const paths = served['paths'] as Record<string, Json>;
  for (const collection of collections) {
    secure(paths[`/${collection.name}`], collection.collectionMethods, collection.name);
    secure(paths[collection.itemPath], collection.itemMethods, collection.name);
  }
  return JSON.stringify(served);
}

/** Each operation requires its scope, whatever the document said: the server enforces exactly this. */
function secure(item: Json | undefined, methods: readonly HttpMethod[], name: string): void {
  for (const method of methods) {
    const operation = item?.[method] as Json | undefined;
    if (operation === undefined) continue;
    operation['security'] = [{ [SECURITY_SCHEME]: [`${name}:${method === 'get' ? 'read' : 'write'}`] }];
  }
}
