/**
 * Types for the subset of OpenAPI 3.0.3 (https://spec.openapis.org/oas/v3.0.3) and 3.1.1
 * (https://spec.openapis.org/oas/v3.1.1) Gatehouse uses. Sections we do not read (tags...) stay `unknown`.
 */

/** The OpenAPI minor version a document is written in; it decides the Schema Object dialect. */
export type OpenApiVersion = '3.0' | '3.1';

/** 3.0 types; 3.1 (JSON Schema 2020-12) adds `null` and lists of types. */
export type SchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** §4.7.23 Reference Object; siblings of `$ref` are ignored. */
export interface ReferenceObject {
  readonly $ref: string;
}

export type SchemaOrReference = SchemaObject | ReferenceObject;

/**
 * §4.7.24 Schema Object: the 3.0 flavour (`nullable`, boolean `exclusiveMaximum`) or the 3.1 one
 * (JSON Schema 2020-12: `type` lists, `const`, `examples`, `$defs`, numeric `exclusiveMaximum`).
 */
export interface SchemaObject {
  readonly type?: SchemaType | readonly SchemaType[];
  readonly format?: string;
  readonly nullable?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly properties?: Readonly<Record<string, SchemaOrReference>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | SchemaOrReference;
  readonly items?: SchemaOrReference;
  readonly allOf?: readonly SchemaOrReference[];
  readonly anyOf?: readonly SchemaOrReference[];
  readonly oneOf?: readonly SchemaOrReference[];
  readonly not?: SchemaOrReference;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly multipleOf?: number;
  readonly maximum?: number;
  readonly exclusiveMaximum?: boolean | number;
  readonly minimum?: number;
  readonly exclusiveMinimum?: boolean | number;
  readonly const?: unknown;
  readonly examples?: unknown;
  readonly $defs?: Readonly<Record<string, SchemaOrReference>>;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
  readonly maxProperties?: number;
  readonly minProperties?: number;
  readonly title?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly default?: unknown;
  readonly example?: unknown;
  readonly discriminator?: unknown;
  readonly xml?: unknown;
  readonly externalDocs?: unknown;
  readonly [extension: `x-${string}`]: unknown;
}

export interface MediaTypeObject {
  readonly schema?: SchemaOrReference;
  readonly [key: string]: unknown;
}

export interface RequestBodyObject {
  readonly content: Readonly<Record<string, MediaTypeObject>>;
  readonly required?: boolean;
  readonly description?: string;
}

export interface OperationObject {
  readonly responses: Readonly<Record<string, unknown>>;
  readonly requestBody?: RequestBodyObject;
  readonly [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = { readonly [M in HttpMethod]?: OperationObject } & { readonly [key: string]: unknown };

export interface ComponentsObject {
  readonly schemas?: Readonly<Record<string, SchemaOrReference>>;
  readonly [key: string]: unknown;
}

export interface OpenApiDocument {
  /** `3.0.x` or `3.1.x`. */
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly components?: ComponentsObject;
  readonly [key: string]: unknown;
}

export interface CollectionDeclaration {
  /** The path segment, e.g. `contacts`; scopes are `{name}:read` / `{name}:write`. */
  readonly name: string;
  /** The item path as the document writes it, e.g. `/contacts/{id}`. */
  readonly itemPath: string;
  /** The operations the document declares on `/{name}` and on the item path; only these are served. */
  readonly collectionMethods: readonly HttpMethod[];
  readonly itemMethods: readonly HttpMethod[];
  /** The component name when the POST schema is a `$ref`, `null` for an inline schema. */
  readonly schemaName: string | null;
  /** The record schema, with a top-level `$ref` resolved. */
  readonly schema: SchemaObject;
}
