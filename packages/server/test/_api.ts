import assert from 'node:assert/strict';
import { runCli } from '../src/cli/run.js';
import { ISSUER } from './_oauth-assertions.js';
import { assertDescribed } from './_openapi.js';
import type { TestClient, TestServer } from './_server.js';

/** What a REST call answered: status, headers, and the body parsed when it is JSON (text otherwise). */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON (typed loosely: tests read whatever members they assert on), or the text. */
  readonly body: any;
  readonly text: string;
}

export interface ApiRequestOptions {
  /** Extra headers; `null` removes a default header (e.g. `{ 'content-type': null }`). */
  readonly headers?: Record<string, string | null>;
  /** Send this text as the body verbatim instead of JSON-encoding `body`. */
  readonly raw?: string;
}

/** Every problem `type` any REST call of this process received, so a test can check they all resolve. */
export const receivedProblemTypes = new Set<string>();

const MERGE_PATCH = 'application/merge-patch+json';

/**
 * A tiny REST client over fetch: `api(server, token).post('/v2/contacts', { email })`. Bodies are
 * JSON-encoded and sent as application/json (application/merge-patch+json for PATCH) with the
 * bearer token, if any. Every answer under /v2 and /admin/v1 is checked against the OpenAPI
 * document served for it (_openapi.ts) before the test sees it.
 */
export function api(server: Pick<TestServer, 'url'>, token?: string) {
  async function request(
    method: string,
    path: string,
    body?: unknown,
    options: ApiRequestOptions = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const hasBody = body !== undefined || options.raw !== undefined;
    if (hasBody) headers['content-type'] = method === 'PATCH' ? MERGE_PATCH : 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const response = await fetch(`${server.url}${path}`, { method, headers, body: payload });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = /\bjson\b/.test(type) && text !== '' ? JSON.parse(text) : text;
    if (type.startsWith('application/problem+json') && isObject(parsed) && typeof parsed.type === 'string') {
      receivedProblemTypes.add(parsed.type);
    }
    const result = { status: response.status, headers: response.headers, body: parsed, text };
    // Undocumented behaviour fails the test that met it (docs/rest-api.md, "REST API").
    await assertDescribed(server.url, method, path, result);
    return result;
  }
  return {
    request,
    get: (path: string, options?: ApiRequestOptions) => request('GET', path, undefined, options),
    post: (path: string, body?: unknown, options?: ApiRequestOptions) => request('POST', path, body, options),
    put: (path: string, body?: unknown, options?: ApiRequestOptions) => request('PUT', path, body, options),
    patch: (path: string, body?: unknown, options?: ApiRequestOptions) => request('PATCH', path, body, options),
    delete: (path: string, options?: ApiRequestOptions) => request('DELETE', path, undefined, options),
  };
}

export type Api = ReturnType<typeof api>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A client holding `scopes` and an access token of a grant for exactly those scopes. */
export async function clientWithToken(
  server: TestServer,
  id: string,
  scopes: readonly string[],
): Promise<{ client: TestClient; access_token: string; refresh_token: string; grant_id: string }> {
  const client = await server.addClient({ id, scope: [...scopes] });
  const tokens = await server.issueGrant(client, 'alice', scopes);
  return { client, ...tokens };
}

/**
 * An access token of a new admin client (`gatehouse clients add --admin`, with `options` such as
 * `--scope gatehouse:admin:read`), from the client-credentials grant (RFC 6749 §4.4).
 */
export async function adminToken(
  server: Pick<TestServer, 'databaseUrl' | 'post'>,
  id: string,
  ...options: string[]
): Promise<string> {
  const out: string[] = [];
  const env = { DATABASE_URL: server.databaseUrl, ISSUER };
  const argv = ['clients', 'add', '--id', id, '--name', id, '--admin', ...options];
  assert.equal(await runCli(argv, env, { out: (t) => out.push(t), err: () => {} }), 0);
  const client: TestClient = { id, secret: (JSON.parse(out.join('\n')) as { client_secret: string }).client_secret };
  const response = await server.post('/token', { grant_type: 'client_credentials' }, { as: client });
  const body = (await response.json()) as { access_token: string };
  assert.equal(response.status, 200, JSON.stringify(body));
  return body.access_token;
}

/** The exact message the contract gives for a missing required field. */
export const missingMessage = (field: string): string => `Missing required field '${field}' in request body`;

/**
 * Asserts an RFC 9457 problem from the catalog: the status, `application/problem+json`, the
 * `type` `/problems/{slug}`, a `status` member equal to the HTTP status, and a detail string.
 */
export function assertProblem(response: ApiResponse, status: number, slug: string): void {
  assert.equal(response.status, status, `expected ${status} ${slug}, got ${response.status}: ${response.text}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json\b/);
  assert.equal(response.body.type, `/problems/${slug}`);
  assert.equal(response.body.status, status);
  assert.equal(typeof response.body.title, 'string');
  assert.equal(typeof response.body.detail, 'string');
}

/** Asserts the contract's missing-field 400 for exactly the `fields` listed, in order. */
export function assertMissingFields(
  response: ApiResponse,
  fields: readonly { field: string; pointer: string }[],
  instance?: string,
): void {
  assertProblem(response, 400, 'missing-required-field');
  const first = fields[0];
  assert.ok(first, 'name at least one missing field');
  assert.equal(response.body.title, 'Missing required field');
  assert.equal(response.body.detail, missingMessage(first.field));
  if (instance !== undefined) assert.equal(response.body.instance, instance);
  assert.deepEqual(
    response.body.errors,
    fields.map(({ field, pointer }) => ({
      code: 'missing_required_field',
      field,
      pointer,
      detail: missingMessage(field),
    })),
  );
}

/** Asserts a 422 invalid-field-value whose detail is not the missing-field message. */
export function assertInvalidValue(response: ApiResponse, field?: string): void {
  assertProblem(response, 422, 'invalid-field-value');
  assert.doesNotMatch(response.body.detail, /Missing required field/);
  assert.ok(Array.isArray(response.body.errors) && response.body.errors.length > 0, 'lists the invalid fields');
  for (const error of response.body.errors) {
    assert.equal(error.code, 'invalid_field_value');
    assert.doesNotMatch(error.detail, /Missing required field/);
  }
  if (field !== undefined)
    assert.ok(
      response.body.errors.some((e: { field: string }) => e.field === field),
      `errors name '${field}': ${response.text}`,
    );
}
