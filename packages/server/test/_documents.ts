import { fileURLToPath } from 'node:url';
import { DIALECTS, type Dialect } from './_dialects.js';
import { SHIPPED_OPENAPI } from './_server.js';

/** The 3.1 twin of the shipped openapi.yaml: the same API in OpenAPI 3.1's spelling. */
export const OPENAPI_31_TWIN = fileURLToPath(new URL('./fixtures/openapi-3.1.yaml', import.meta.url));

export interface ApiDocumentVersion {
  readonly version: '3.0' | '3.1';
  /** The document the server loads. */
  readonly api: string;
}

/** Every REST suite runs against the shipped 3.0 document and its 3.1 twin. */
export const API_DOCUMENTS: readonly ApiDocumentVersion[] = [
  { version: '3.0', api: SHIPPED_OPENAPI },
  { version: '3.1', api: OPENAPI_31_TWIN },
];

/** Each dialect with each document version, as `for (const { dialect, version, api } of REST_SUITES)`. */
export const REST_SUITES: readonly (ApiDocumentVersion & { readonly dialect: Dialect })[] = DIALECTS.flatMap(
  (dialect) => API_DOCUMENTS.map((document) => ({ dialect, ...document })),
);

/** A collection declared only in this test's OpenAPI document is served with no code change. */
export function widgetsDocument(): Record<string, unknown> {
  const problem = { description: 'A problem', content: { 'application/problem+json': { schema: { type: 'object' } } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Widgets test API', version: '1.0.0' },
    paths: {
      '/widgets': {
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
          },
          responses: { '201': { description: 'Created' }, '400': problem },
        },
        get: { responses: { '200': { description: 'A page' } } },
      },
      '/widgets/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': { description: 'A widget' } } },
      },
    },
    components: {
      schemas: {
        Widget: {
          type: 'object',
          required: ['sku'],
          additionalProperties: false,
          properties: {
            sku: { type: 'string', minLength: 1 },
            address: { $ref: '#/components/schemas/Address' },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        Address: {
          type: 'object',
          required: ['city'],
          additionalProperties: false,
          properties: { city: { type: 'string' }, street: { type: 'string' } },
        },
      },
    },
  };
}
