/**
 * The problem types of the REST API and of every non-OAuth route, answered as RFC 9457
 * `application/problem+json`. `type` is `/problems/{slug}`, a page the server serves.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9457 RFC 9457
 */

export type ProblemCode =
  | 'missing_required_field'
  | 'invalid_field_value'
  | 'malformed_json'
  | 'invalid_parameter'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'precondition_failed'
  | 'internal_error'
  | 'service_unavailable';

export interface ProblemEntry {
  readonly code: ProblemCode;
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  readonly clientAction: string;
  readonly transient: boolean;
}

const problem = (p: ProblemEntry): ProblemEntry => p;

export const PROBLEMS: { readonly [C in ProblemCode]: ProblemEntry } = {
  missing_required_field: problem({
    code: 'missing_required_field', status: 400, slug: 'missing-required-field', title: 'Missing required field', transient: false,
    summary: "A required field is omitted from the JSON body or set to null. The detail reads exactly: Missing required field '<field_name>' in request body. Every missing field is listed in errors.",
    clientAction: 'Add the field with a valid value and send again. Validate bodies against the schema (GET /v2/openapi.json) before sending. Changing POST to PUT does not avoid the validation.',
  }),
  invalid_field_value: problem({
    code: 'invalid_field_value', status: 422, slug: 'invalid-field-value', title: 'Invalid field value', transient: false,
    summary: 'A field is present but its value is not acceptable: an empty or badly formatted value, a wrong type, or a field the schema does not know.',
    clientAction: 'Send a correctly formatted value for each field listed in errors.',
  }),
  malformed_json: problem({
    code: 'malformed_json', status: 400, slug: 'malformed-json', title: 'Malformed JSON', transient: false,
    summary: 'The request body is not valid JSON, or is empty where a body is required.',
    clientAction: 'Send a well-formed JSON document.',
  }),
  invalid_parameter: problem({
    code: 'invalid_parameter', status: 400, slug: 'invalid-parameter', title: 'Invalid query parameter', transient: false,
    summary: 'A query parameter has a value the endpoint does not accept, such as a page size out of range or a cursor it did not give out.',
    clientAction: 'Send the parameter as the detail says, or leave it out.',
  }),
  unsupported_media_type: problem({
    code: 'unsupported_media_type', status: 415, slug: 'unsupported-media-type', title: 'Unsupported media type', transient: false,
    summary: 'The request body has a Content-Type this endpoint does not accept.',
    clientAction: 'Send Content-Type: application/json (application/merge-patch+json for PATCH).',
  }),
  payload_too_large: problem({
    code: 'payload_too_large', status: 413, slug: 'payload-too-large', title: 'Payload too large', transient: false,
    summary: 'The request body is larger than the server accepts.',
    clientAction: 'Send a smaller body.',
  }),
  invalid_token: problem({
    code: 'invalid_token', status: 401, slug: 'invalid-token', title: 'Invalid access token', transient: false,
    summary: 'The bearer access token is missing, malformed, expired, signed by an unknown key, or belongs to a revoked grant.',
    clientAction: 'Refresh the access token; if the refresh is refused with invalid_grant, run the authorization flow again.',
  }),
  insufficient_scope: problem({
    code: 'insufficient_scope', status: 403, slug: 'insufficient-scope', title: 'Insufficient scope', transient: false,
    summary: 'The access token is valid but lacks the scope this operation needs.',
    clientAction: 'Obtain a token with the scope named in the WWW-Authenticate header.',
  }),
  not_found: problem({
    code: 'not_found', status: 404, slug: 'not-found', title: 'Not found', transient: false,
    summary: 'There is no resource at this URL.',
    clientAction: 'Check the URL; the server metadata and the OpenAPI document list what exists.',
  }),
  method_not_allowed: problem({
    code: 'method_not_allowed', status: 405, slug: 'method-not-allowed', title: 'Method not allowed', transient: false,
    summary: 'The resource exists but does not support this HTTP method.',
    clientAction: 'Use one of the methods listed in the Allow header.',
  }),
  precondition_failed: problem({
    code: 'precondition_failed', status: 412, slug: 'precondition-failed', title: 'Precondition failed', transient: false,
    summary: 'If-Match names a version of the record that is no longer current.',
    clientAction: 'Fetch the record again, reapply your change, and send it with the new ETag.',
  }),
  internal_error: problem({
    code: 'internal_error', status: 500, slug: 'internal-error', title: 'Internal server error', transient: true,
    summary: 'The server met an unexpected condition; nothing was written.',
    clientAction: 'Retry with exponential backoff; report the problem to the operator if it persists.',
  }),
  service_unavailable: problem({
    code: 'service_unavailable', status: 503, slug: 'service-unavailable', title: 'Service unavailable', transient: true,
    summary: 'The server is overloaded or its store is busy; nothing was written.',
    clientAction: 'Retry after the Retry-After delay, with exponential backoff.',
  }),
};

/** One field-level error inside a problem body. */
export interface ProblemFieldError {
  readonly code: ProblemCode;
  readonly field: string;
  readonly pointer: string;
  readonly detail: string;
}

/** An RFC 9457 problem body as Gatehouse sends it. */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly errors?: readonly ProblemFieldError[];
}
