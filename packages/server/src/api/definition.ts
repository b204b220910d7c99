import { readFileSync } from 'node:fs';
import {
  checkOpenApiDocument,
  compileCollectionValidators,
  type BodyValidator,
  type OpenApiDocument,
} from '@gatehouse/contract';
import { parse as parseYaml } from 'yaml';

/** The REST API as its OpenAPI document declares it: the collections and their compiled validators. */
export interface ApiDefinition {
  readonly document: OpenApiDocument;
  readonly collections: ReadonlyMap<string, BodyValidator>;
}

/** A document that cannot be served; the message names the file and the problem. */
export class ApiDefinitionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiDefinitionError';
  }
}

/** Reads an OpenAPI 3.0 document (YAML or JSON), checks it and compiles every collection's schema once. */
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
    const document = checkOpenApiDocument(raw);
    return { document, collections: compileCollectionValidators(document) };
  } catch (error) {
    throw new ApiDefinitionError(`the OpenAPI document ${source} is broken: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
