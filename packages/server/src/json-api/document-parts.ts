/**
 * The pieces of OpenAPI the server writes into the document it serves (document-enrichment.ts,
 * served-document.ts): the problem schema, the problem responses with their headers, the OAuth 2.0
 * security scheme at this server's endpoints.
 */
import type { CollectionDeclaration } from '@gatehouse/contract';
import { PROBLEMS, type ProblemCode } from '@gatehouse/contract';

type Json = Record<string, unknown>;

/** A record id as the server makes them (primitives/ids.ts `newRecordId`), for examples. */
export const EXAMPLE_ID = '0mbx3k2qz000a1b2c3d4e5f6';

/** RFC 9457 problem details as `ProblemError.toJson` writes them; added when the document has no `Problem`. */
export const PROBLEM_SCHEMAS: Readonly<Record<string, Json>> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details, extended with the list of field errors.',
    required: ['type', 'title', 'status', 'detail', 'instance'],
    additionalProperties: false,
    properties: {
      type: { type: 'string', format: 'uri-reference' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string', format: 'uri-reference' },
      errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
    },
  },
  FieldError: {
    type: 'object',
    required: ['code', 'field', 'pointer', 'detail'],
    additionalProperties: false,
    properties: {
      code: { type: 'string', enum: ['missing_required_field', 'invalid_field_value'] },
      field: { type: 'string' },
      pointer: { type: 'string' },
      detail: { type: 'string' },
    },
  },
};

const header = (description: string): Json => ({ description, schema: { type: 'string' } });

export const SUCCESS_HEADERS: Readonly<Record<'ETag' | 'Location', Json>> = {
  ETag: header('The version of the record (RFC 9110 §8.8.3); send it back in If-Match.'),
  Location: header('URL of the new record.'),
};

/** Which catalog problems each status stands for, to describe it. */
const STATUS_PROBLEMS: Readonly<Record<number, readonly ProblemCode[]>> = {
  400: ['malformed_json', 'missing_required_field', 'invalid_parameter', 'malformed_request'],
  401: ['invalid_token'],
  403: ['insufficient_scope'],
  404: ['not_found'],
  409: ['conflict'],
  412: ['precondition_failed'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['invalid_field_value'],
  500: ['internal_error'],
  503: ['service_unavailable'],
};

/**
 * A problem response for `status`, with the headers the server sends with it; `extra` names the
 * operation's own problems of that status besides the usual ones.
 */
export function problemResponse(status: number, extra: readonly ProblemCode[] = []): Json {
  const codes = [...(STATUS_PROBLEMS[status] ?? []), ...extra];
  const response: Json = {
    description: codes.map((code) => `${PROBLEMS[code].title} (/problems/${PROBLEMS[code].slug})`).join('; '),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
  // RFC 6750 §3: a refused bearer token is answered with a challenge.
  if (status === 401 || status === 403)
    response['headers'] = { 'WWW-Authenticate': header('The RFC 6750 §3 bearer challenge.') };
  if (codes.some((code) => PROBLEMS[code].transient))
    response['headers'] = { 'Retry-After': header('Seconds to wait before trying again (RFC 9110 §10.2.3).') };
  return response;
}

/** The name of the security scheme the server adds. */
export const SECURITY_SCHEME = 'gatehouse_oauth2';

/**
 * OAuth 2.0 at this server's endpoints (RFC 6749 §4.1 authorization code, §4.4 client credentials),
 * with each collection's scopes `{name}:read` and `{name}:write`.
 */
export function securityScheme(issuer: string, collections: readonly CollectionDeclaration[]): Json {
  const scopes = Object.fromEntries(
    collections.flatMap(({ name }) => [
      [`${name}:read`, `Read ${name} records`],
      [`${name}:write`, `Create, replace, patch and delete ${name} records`],
    ]),
  );
  return {
    type: 'oauth2',
    description: 'RFC 6750 bearer access tokens issued by this Gatehouse server.',
    flows: {
      authorizationCode: {
        authorizationUrl: `${issuer}/authorize`,
        tokenUrl: `${issuer}/token`,
        refreshUrl: `${issuer}/token`,
        scopes,
      },
      clientCredentials: { tokenUrl: `${issuer}/token`, scopes },
    },
  };
}
