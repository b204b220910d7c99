/** Shared fixtures for the OpenAPI tests (not a test file itself). */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkOpenApiDocument, type OpenApiDocument } from '../src/openapi/index.js';

export const SHIPPED_DOCUMENT_PATH = new URL('../../../openapi.yaml', import.meta.url);

/** The raw parsed `openapi.yaml` shipped at the repository root. */
export function readShippedDocument(): unknown {
  return parse(readFileSync(SHIPPED_DOCUMENT_PATH, 'utf8'));
}

export function loadShippedDocument(): OpenApiDocument {
  return checkOpenApiDocument(readShippedDocument());
}

/**
 * A minimal valid document: `components.schemas` = `schemas`, and for each entry of
 * `collections` (name → component name) the two collection paths.
 */
export function documentWith(
  schemas: Record<string, unknown>,
  collections: Record<string, string> = {},
): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [name, schemaName] of Object.entries(collections)) {
    const body = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` } } } };
    paths[`/${name}`] = { post: { requestBody: body, responses: { '201': { description: 'Created' } } } };
    paths[`/${name}/{id}`] = { get: { responses: { '200': { description: 'OK' } } } };
  }
  return { openapi: '3.0.3', info: { title: 'Test', version: '1.0.0' }, paths, components: { schemas } };
}

export function checkedDocumentWith(
  schemas: Record<string, unknown>,
  collections: Record<string, string> = {},
): OpenApiDocument {
  return checkOpenApiDocument(documentWith(schemas, collections));
}
