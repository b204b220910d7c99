import { readFileSync } from 'node:fs';
import {
  checkOpenApiDocument,
  compileCollectionValidators,
  listCollections,
  type BodyValidator,
  type CollectionDeclaration,
  type OpenApiDocument,
} from '@gatehouse/contract';
import { parse as parseYaml } from 'yaml';
import { enrichDocument } from './document-enrichment.js';
import { operationRoles, type OperationRoles } from './operation-roles.js';
import { collectionPolicy, type CollectionPolicy } from './ownership.js';

/**
 * The REST API as its OpenAPI document declares it, with what the server adds
 * (document-enrichment.ts): the collections, the operations declared for each, and their
 * validators, compiled once from that same document.
 */
export interface ApiDefinition {
  readonly document: OpenApiDocument;
  readonly declarations: readonly CollectionDeclaration[];
  readonly collections: ReadonlyMap<string, BodyValidator>;
  /** Each collection's rule of whose records a caller reaches (ownership.ts). */
  readonly policies: ReadonlyMap<string, CollectionPolicy>;
  /** The roles each collection's operations declare (`x-required-roles`, operation-roles.ts). */
  readonly roles: ReadonlyMap<string, OperationRoles>;
}

/** A document that cannot be served; the message names the file and the problem. */
export class ApiDefinitionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiDefinitionError';
  }
}

/** Reads an OpenAPI 3.0 or 3.1 document (YAML or JSON), checks it and compiles every collection's schema once. */
export function loadApiDefinition(path: string): ApiDefinition {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ApiDefinitionError(`cannot read the OpenAPI document ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ApiDefinitionError(
      `the OpenAPI document ${path} is not valid YAML or JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return apiDefinitionFrom(raw, path);
}

export function apiDefinitionFrom(raw: unknown, source: string): ApiDefinition {
  try {
    // The enriched document is checked again: it is what clients load from /v2/openapi.json.
    const document = checkOpenApiDocument(enrichDocument(checkOpenApiDocument(raw)));
    const declarations = listCollections(document);
    return {
      document,
      declarations,
      collections: compileCollectionValidators(document),
      policies: new Map(declarations.map(({ name }) => [name, collectionPolicy(document, name)])),
      roles: new Map(declarations.map((declaration) => [declaration.name, operationRoles(document, declaration)])),
    };
  } catch (error) {
    throw new ApiDefinitionError(`the OpenAPI document ${source} is broken: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
