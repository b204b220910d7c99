/**
 * Every REST and admin API response a test receives must be described by the document the server
 * serves for it, at /v2/openapi.json or /admin/v1/openapi.json: the status, the media type, the
 * headers Gatehouse sends with meaning (ETag, Location, WWW-Authenticate, Retry-After, Allow) and
 * the body's schema. Bodies are checked with @hyperjump/json-schema's OpenAPI 3.0 and 3.1
 * dialects, not with Gatehouse's own validator, so a shared misreading of the document cannot hide.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Validator } from '@hyperjump/json-schema';
import { validate as validate30 } from '@hyperjump/json-schema/openapi-3-0';
import { validate as validate31 } from '@hyperjump/json-schema/openapi-3-1';

type Json = Record<string, unknown>;

export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

/** Headers whose presence says something the document must declare. */
const MEANINGFUL_HEADERS = ['etag', 'location', 'www-authenticate', 'retry-after'];

interface ServedDocument {
  readonly document: Json;
  /** `file:` URL of a copy on disk, named `*.openapi.json` so the validator reads it as OpenAPI. */
  readonly url: string;
  readonly basePath: string;
}

const served = new Map<string, Promise<ServedDocument>>();

/**
 * Each schema compiled once per process, by its URL (the document's copy is named by its content's
 * digest, so one URL is one schema): compiling is most of the validator's cost.
 */
const validators = new Map<string, Promise<Validator>>();

/** The APIs whose answers are checked, by the path their document is served under. */
const API_BASES = ['/v2', '/admin/v1'];

/** The document `serverUrl` serves under `base`, fetched once per server. */
export function servedDocument(serverUrl: string, base = '/v2'): Promise<ServedDocument> {
  let entry = served.get(`${serverUrl}${base}`);
  if (entry === undefined) {
    entry = fetchDocument(serverUrl, base);
    served.set(`${serverUrl}${base}`, entry);
  }
  return entry;
}

async function fetchDocument(serverUrl: string, base: string): Promise<ServedDocument> {
  const response = await fetch(`${serverUrl}${base}/openapi.json`);
  assert.equal(response.status, 200, 'the server serves its OpenAPI document');
  const text = await response.text();
  const document = JSON.parse(text) as Json;
  const file = join(tmpdir(), `gatehouse-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.openapi.json`);
  // Test processes that run at once share the file (its name is its content's digest): written in
  // place, one process truncated it while another's validator was reading it ("Unable to load
  // resource"). Written aside and renamed over it, a reader sees the whole document or none.
  const written = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(written, text);
  renameSync(written, file);
  const servers = document['servers'] as { url: string }[] | undefined;
  const basePath = new URL(servers?.[0]?.url ?? base, serverUrl).pathname.replace(/\/$/, '');
  return { document, url: pathToFileURL(file).href, basePath };
}

/** Fails unless the served document describes `response` to `method path`. */
export async function assertDescribed(
  serverUrl: string,
  method: string,
  path: string,
  response: ReceivedResponse,
): Promise<void> {
  const pathname = path.split('?')[0] ?? path;
  const base = API_BASES.find((b) => pathname.startsWith(`${b}/`));
  if (base === undefined) return; // not an API with a document: nothing to fetch
  const doc = await servedDocument(serverUrl, base);
  if (!pathname.startsWith(`${doc.basePath}/`) || pathname === `${doc.basePath}/openapi.json`) return;
  const where = `${method} ${pathname} answered ${response.status}`;
  const paths = doc.document['paths'] as Record<string, Json>;
  const template = Object.keys(paths).find((t) => templateMatches(t, pathname.slice(doc.basePath.length)));
  const operationMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
  if (template === undefined || paths[template]?.[operationMethod] === undefined) {
    // Outside the document's operations the server answers only 404 (no such path) or 405 (no such
    // method, with Allow): HTTP's own answers, which OpenAPI cannot attach to an undeclared operation.
    const expected = template === undefined ? 404 : 405;
    assert.equal(response.status, expected, `${where}, but the document declares no such operation`);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json\b/, where);
    if (expected === 405) assert.ok(response.headers.get('allow'), `${where} without Allow`);
    return;
  }
  const pointer = ['paths', template, operationMethod, 'responses'];
  const responses = paths[template]?.[operationMethod] as Json;
  const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find((k) =>
    Object.hasOwn(responses['responses'] as Json, k),
  );
  assert.ok(key, `${where}, a status the document does not declare for this operation`);
  const [declared, at] = resolve(doc.document, [...pointer, key]);
  checkHeaders(declared, response, where);
  if (method === 'HEAD') return;
  await checkContent(doc, declared, at, response, where);
}

function checkHeaders(declared: Json, response: ReceivedResponse, where: string): void {
  const names = new Set(Object.keys((declared['headers'] as Json | undefined) ?? {}).map((n) => n.toLowerCase()));
  for (const name of MEANINGFUL_HEADERS)
    if (response.headers.has(name))
      assert.ok(names.has(name), `${where} with ${name}, which the document does not declare`);
  for (const [name, header] of Object.entries((declared['headers'] as Record<string, Json> | undefined) ?? {}))
    if (header['required'] === true) assert.ok(response.headers.has(name), `${where} without the required ${name}`);
}

async function checkContent(
  doc: ServedDocument,
  declared: Json,
  at: readonly string[],
  response: ReceivedResponse,
  where: string,
): Promise<void> {
  const content = declared['content'] as Json | undefined;
  if (response.text === '') {
    assert.equal(content, undefined, `${where} with no body, but the document declares content`);
    return;
  }
  assert.ok(content, `${where} with a body, but the document declares no content`);
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  assert.ok(Object.hasOwn(content, mediaType), `${where} as ${mediaType}, which the document does not declare`);
  if ((content[mediaType] as Json)['schema'] === undefined) return;
  const fragment = [...at, 'content', mediaType, 'schema'].map((t) => encodeURIComponent(escapeToken(t))).join('/');
  const schema = `${doc.url}#/${fragment}`;
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = ((doc.document['openapi'] as string).startsWith('3.0.') ? validate30 : validate31)(schema);
    validators.set(schema, validator);
  }
  const output = (await validator)(response.body as never, 'BASIC');
  if (!output.valid)
    assert.fail(`${where}: the body does not match the declared schema: ${JSON.stringify(output.errors ?? [])}`);
}

function templateMatches(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** The object at `tokens`, following `$ref`s, and the tokens of where it really is. */
function resolve(document: Json, tokens: readonly string[]): [Json, readonly string[]] {
  let at = tokens;
  let node = tokens.reduce<Json>((n, t) => n[t] as Json, document);
  while (typeof node['$ref'] === 'string') {
    at = node['$ref'].slice(2).split('/').map(unescapeToken);
    node = at.reduce<Json>((n, t) => n[t] as Json, document);
  }
  return [node, at];
}

const escapeToken = (t: string): string => t.replaceAll('~', '~0').replaceAll('/', '~1');
const unescapeToken = (t: string): string => t.replaceAll('~1', '/').replaceAll('~0', '~');
