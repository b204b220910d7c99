import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { TestContext } from 'node:test';
import fc from 'fast-check';
import { OAUTH_ERRORS, OAUTH_REASONS, PROBLEMS, statusOfOAuthReason, type OAuthReasonEntry } from '@gatehouse/contract';
import { FORM_POST_SCRIPT } from '../src/html/authorization-response.js';

/**
 * Shared pieces of the fuzz suites (fuzz-oauth, fuzz-authorize, fuzz-rest): hostile-input
 * arbitraries, a raw HTTP/1.1 sender that can send what fetch cannot (invalid UTF-8, duplicate
 * headers, lying Content-Length, truncated bodies, any content type), and the one assertion every
 * answer must pass: no 5xx, and every error a catalog entry.
 *
 * FUZZ_RUNS sets the inputs per property: 200 in `npm test`, 5000 in `npm run fuzz` (release).
 */
export const FUZZ_RUNS = positiveInteger(process.env.FUZZ_RUNS, 200);

function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

/**
 * Runs an async property FUZZ_RUNS times (or `runs`), reporting how many inputs it tried and what
 * they got: the predicate may return a label of the outcome (e.g. the answer's status and error).
 */
export async function fuzz<Ts extends [unknown, ...unknown[]]>(
  t: TestContext,
  label: string,
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  predicate: (...args: Ts) => Promise<string | void>,
  runs = FUZZ_RUNS,
): Promise<void> {
  let tried = 0;
  const outcomes = new Map<string, number>();
  const property = fc.asyncProperty(...arbitraries, async (...args: Ts) => {
    tried += 1;
    const outcome = await predicate(...args);
    if (outcome) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  });
  try {
    // fast-check prints the seed of a failure; FUZZ_SEED replays it.
    const seed = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};
    await fc.assert(property as fc.IAsyncProperty<Ts>, { numRuns: runs, includeErrorInReport: true, ...seed });
  } finally {
    const seen = [...outcomes]
      .sort((a, b) => b[1] - a[1])
      .map(([outcome, n]) => `${outcome} ×${n}`)
      .join(', ');
    t.diagnostic(`fuzz ${label}: ${tried} inputs tried${seen ? `; answers: ${seen}` : ''}`);
  }
}

// --- the raw HTTP sender -------------------------------------------------------------------------

export interface RawRequest {
  readonly method: string;
  /** The request target, sent byte for byte (may hold bytes that are not UTF-8). */
  readonly target: string | Buffer;
  /** In order; a name may repeat. A Buffer value is sent as raw bytes. */
  readonly headers?: ReadonlyArray<readonly [string, string | Buffer]>;
  readonly body?: Buffer;
  /** The Content-Length to declare: the body's length by default; 'none' sends no such header. */
  readonly contentLength?: number | 'none';
  /** After sending, 'end' half-closes (FIN) and 'destroy' drops the connection: a truncated body. */
  readonly thenClose?: 'end' | 'destroy';
}

export interface RawAnswer {
  readonly status: number;
  /** Lower-case names; a repeated header keeps its values joined by ', ' (set-cookie by '\n'). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly text: string;
}

/** No answer came: the connection was closed or reset without a response (a truncated request). */
export const NO_ANSWER = Symbol('no answer');

/**
 * Sends one request over a fresh TCP connection (with `Connection: close`) and reads the answer to
 * the end. Resolves NO_ANSWER if the server closes without answering; rejects on timeout.
 */
export function sendRaw(
  baseUrl: string,
  request: RawRequest,
  timeoutMs = 10_000,
): Promise<RawAnswer | typeof NO_ANSWER> {
  const { hostname, port } = new URL(baseUrl);
  const head: Buffer[] = [
    Buffer.from(`${request.method} `, 'latin1'),
    toBytes(request.target),
    Buffer.from(' HTTP/1.1\r\n', 'latin1'),
  ];
  head.push(Buffer.from(`host: ${hostname}:${port}\r\nconnection: close\r\n`, 'latin1'));
  for (const [name, value] of request.headers ?? [])
    head.push(Buffer.from(`${name}: `, 'latin1'), toBytes(value), Buffer.from('\r\n', 'latin1'));
  const body = request.body ?? Buffer.alloc(0);
  const length = request.contentLength ?? body.length;
  if (length !== 'none') head.push(Buffer.from(`content-length: ${length}\r\n`, 'latin1'));
  head.push(Buffer.from('\r\n', 'latin1'));
  const bytes = Buffer.concat([...head, body]);

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${String(request.target).slice(0, 80)}`));
    }, timeoutMs);
    const finish = (): void => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      resolve(all.length === 0 ? NO_ANSWER : parseAnswer(all));
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      socket.end();
      finish();
    });
    // A reset after a complete answer is still an answer; before one, there is none.
    socket.on('error', () => finish());
    socket.write(bytes, () => {
      if (request.thenClose === 'end') socket.end();
      if (request.thenClose === 'destroy') {
        socket.destroy();
        clearTimeout(timer);
        resolve(NO_ANSWER);
      }
    });
  });
}

function toBytes(value: string | Buffer): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

function parseAnswer(all: Buffer): RawAnswer {
  // Interim 1xx answers (100 Continue to `Expect: 100-continue`) come before the final one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(all.subarray(0, 16).toString('latin1')) && all.indexOf('\r\n\r\n') > 0) {
    all = all.subarray(all.indexOf('\r\n\r\n') + 4);
  }
  const end = all.indexOf('\r\n\r\n');
  assert.ok(end > 0, `an HTTP answer: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  assert.ok(status?.[1], `a status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] =
      headers[name] === undefined ? value : `${headers[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  let body = all.subarray(end + 4);
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(status[1]), headers, body, text: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

// --- the catalog assertion -----------------------------------------------------------------------

/** Which answers an endpoint may give: RFC 6749 §5.2 JSON, RFC 9457 problems, or HTML pages. */
export type AnswerKind = 'oauth' | 'problem' | 'page';

export interface CatalogExpectation {
  /** The forms of error the request may get (the OAuth endpoints' own answers are 'oauth' only). */
  readonly kind: AnswerKind | readonly AnswerKind[];
  /** The issuer: the base of every `error_uri`. */
  readonly issuer: string;
}

const PROBLEM_BY_SLUG = new Map(Object.values(PROBLEMS).map((p) => [p.slug, p]));
const HTML_CODES = new Map<string, number>([
  ...Object.values(PROBLEMS).map((p) => [p.code, p.status] as const),
  ...Object.values(OAUTH_ERRORS).map((e) => [e.error, e.status] as const),
]);

/** The catalog reason whose description (with `{parameter}` filled by a parameter name) this is. */
function reasonOf(error: string, description: string): string | undefined {
  for (const [name, entry] of Object.entries<OAuthReasonEntry>(OAUTH_REASONS)) {
    if (entry.error !== error) continue;
    const pattern = new RegExp(
      `^${entry.description
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace('\\{parameter\\}', '[a-z_]+')
        .replace('{parameter}', '[a-z_]+')}$`,
    );
    if (pattern.test(description)) return name;
  }
  return undefined;
}

/**
 * Every answer of a fuzzed request: below 500, and every error a catalog entry.
 * - OAuth JSON: exactly {error, error_description, error_uri}; the description one of the
 *   catalog's for that error, the status that reason's, `error_uri` the error's page, no-store.
 * - problem+json: `type` /problems/<slug> of a PROBLEMS entry, `status` the HTTP status and the
 *   entry's, `title` the entry's.
 * - HTML page: a 4xx page naming a catalog code whose status it carries, with the CSP.
 * - 302/303 to a client: an `error` parameter, if any, is a catalog OAuth code with its description.
 */
export function assertCatalogAnswer(answer: RawAnswer, expected: CatalogExpectation): void {
  const where = `${answer.status} ${answer.headers['content-type'] ?? ''} ${answer.text.slice(0, 300)}`;
  assert.ok(answer.status >= 200 && answer.status < 500, `no 5xx, no 1xx: ${where}`);
  const type = answer.headers['content-type'] ?? '';
  if (answer.status === 302 || answer.status === 303) return assertRedirect(answer, expected, where);
  if (/^text\/html\b/.test(type)) assertNoMarkup(answer.text, where);
  if (answer.status < 400) {
    if (/\bjson\b/.test(type) && answer.body.length > 0) JSON.parse(answer.text);
    return;
  }
  const kinds: readonly AnswerKind[] = typeof expected.kind === 'string' ? [expected.kind] : expected.kind;
  const given: AnswerKind = /^application\/problem\+json\b/.test(type)
    ? 'problem'
    : /^text\/html\b/.test(type)
      ? 'page'
      : 'oauth';
  // The pages answer problem+json where the HTTP layer refuses a request before any route.
  assert.ok(
    kinds.includes(given) || (given === 'problem' && kinds.includes('page')),
    `an answer of the kind ${kinds.join(' or ')}: ${where}`,
  );
  if (given === 'oauth') return assertOAuthBody(answer, expected.issuer, where);
  if (given === 'problem') return assertProblemBody(answer, where);
  return assertErrorPage(answer, where);
}

/** What the fuzzers inject to break out of HTML text or attributes; a page must never carry it as markup. */
export const MARKUP_PROBES = [
  '<script>alert(1)</script>',
  '"><x-fuzz-probe>',
  "'><x-fuzz-probe>",
  '<x-fuzz-probe onerror=1>',
] as const;

function assertNoMarkup(page: string, where: string): void {
  // The form_post page runs one script of the server's own (allowed by its CSP digest), and a page
  // offering passkeys loads the server's own passkey asset (script-src 'self'); none other.
  const html = page
    .replace(`<script>${FORM_POST_SCRIPT}</script>`, '')
    .replace(/<script src="(?:\/[a-z0-9_-]+)*\/assets\/passkey\.js" defer><\/script>/, '');
  assert.ok(!/<script/i.test(html), `no script on a page: ${where}`);
  assert.ok(!/<x-fuzz-probe/i.test(html), `input is escaped on a page: ${where}`);
}

function assertOAuthBody(answer: RawAnswer, issuer: string, where: string): void {
  assert.match(answer.headers['content-type'] ?? '', /^application\/json\b/, where);
  assert.equal(answer.headers['cache-control'], 'no-store', where);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description', 'error_uri'], where);
  const entry = OAUTH_ERRORS[body.error as keyof typeof OAUTH_ERRORS];
  assert.ok(entry && Object.hasOwn(OAUTH_ERRORS, body.error as string), `a catalog OAuth error: ${where}`);
  const reason = reasonOf(entry.error, String(body.error_description));
  assert.ok(reason, `a catalog description of ${entry.error}: ${where}`);
  assert.equal(answer.status, statusOfOAuthReason(reason as keyof typeof OAUTH_REASONS), where);
  assert.equal(body.error_uri, `${issuer}/problems/${entry.page}`, where);
}

function assertProblemBody(answer: RawAnswer, where: string): void {
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  const slug = /^\/problems\/([a-z-]+)$/.exec(String(body.type))?.[1];
  const entry = slug === undefined ? undefined : PROBLEM_BY_SLUG.get(slug);
  assert.ok(entry, `a catalog problem type: ${where}`);
  assert.equal(body.status, answer.status, where);
  assert.equal(entry.status, answer.status, where);
  assert.equal(body.title, entry.title, where);
  assert.equal(typeof body.detail, 'string', where);
  assert.equal(typeof body.instance, 'string', where);
  for (const key of Object.keys(body))
    assert.ok(['type', 'title', 'status', 'detail', 'instance', 'errors'].includes(key), `member ${key}: ${where}`);
}

function assertErrorPage(answer: RawAnswer, where: string): void {
  assert.match(answer.headers['content-type'] ?? '', /^text\/html; charset=utf-8/, where);
  assert.match(answer.headers['content-security-policy'] ?? '', /default-src 'none'/, where);
  const named = /Error <code>([a-z_]+)<\/code> · HTTP (\d{3})/.exec(answer.text);
  if (named) {
    assert.equal(HTML_CODES.get(named[1] as string), answer.status, `the page's code has its catalog status: ${where}`);
    assert.equal(Number(named[2]), answer.status, where);
    return;
  }
  // The sign-in page itself answers a failed sign-in (401) or the throttle (429).
  const alert = /<div class="alert" role="alert"><strong>([^<]+)<\/strong>/.exec(answer.text)?.[1];
  const expectedTitle =
    answer.status === 401
      ? PROBLEMS.login_failed.title
      : answer.status === 429
        ? PROBLEMS.too_many_login_attempts.title
        : undefined;
  assert.ok(
    expectedTitle !== undefined && alert === expectedTitle.replace(/'/g, '&#39;'),
    `a catalog error page: ${where}`,
  );
}

function assertRedirect(answer: RawAnswer, expected: CatalogExpectation, where: string): void {
  assert.ok(
    expected.kind === 'page' || expected.kind.includes('page'),
    `only the authorization pages redirect: ${where}`,
  );
  const location = answer.headers.location;
  assert.ok(location, `a Location: ${where}`);
  const url = new URL(location, expected.issuer);
  const error = url.searchParams.get('error');
  if (error === null) return;
  const entry = OAUTH_ERRORS[error as keyof typeof OAUTH_ERRORS];
  assert.ok(entry && Object.hasOwn(OAUTH_ERRORS, error), `a catalog OAuth error in the redirect: ${where} ${location}`);
  assert.ok(reasonOf(error, url.searchParams.get('error_description') ?? ''), `a catalog description: ${location}`);
  assert.equal(url.searchParams.get('error_uri'), `${expected.issuer}/problems/${entry.page}`, location);
  assert.equal(url.searchParams.get('iss'), expected.issuer, location);
}

// --- hostile input -------------------------------------------------------------------------------

/** Keys that have tripped JavaScript servers: prototype pollution and inherited members. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'then',
] as const;

/** Strings that are odd rather than random: Unicode corners, controls, separators, huge ones. */
const ODD_STRINGS = [
  '',
  ' ',
  '\t',
  '\u0000',
  '\r\n',
  '\u0085',
  '\u2028',
  '\uFEFF',
  '\u200B',
  '\u202E',
  'e\u0301',
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDFFF',
  '😀',
  'ǅ',
  'ß',
  'İ',
  'ﬁ',
  '\u0130',
  'Ω',
  '∞',
  'NaN',
  '-0',
  '1e309',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '%',
  '%%',
  '%zz',
  '%00',
  '%C0%80',
  '%ED%A0%80',
  '%FF',
  '+',
  '&',
  '=',
  '&&==',
  '../../etc/passwd',
  '"\'><',
  '${7*7}',
  ...MARKUP_PROBES,
  '\\',
  'Basic',
  'Bearer',
  'a'.repeat(300),
  'x'.repeat(5000),
] as const;

/** C0 controls and DEL, U+0000 first: PostgreSQL text cannot hold U+0000. */
export const CONTROL_CHARS = ['\u0000', '\u0001', '\u0007', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f'];

/** A plausible value (a known client id, a username…) with a control character put at its start, inside or at its end. */
export function withControlChar(value: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(value, fc.constantFrom(...CONTROL_CHARS), fc.nat()).map(([text, control, at]) => {
    const i = at % (text.length + 1);
    return `${text.slice(0, i)}${control}${text.slice(i)}`;
  });
}

/** A hostile text value: random (lone surrogates and controls included), odd, or a prototype key. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: withControlChar(fc.string({ maxLength: 12 })) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => 'A'.repeat(n)) },
);

/** Bytes that are not valid UTF-8: stray continuation bytes, overlongs, surrogates, truncations. */
export const invalidUtf8: fc.Arbitrary<Buffer> = fc.oneof(
  fc
    .constantFrom(
      [0x80],
      [0xff],
      [0xfe, 0xff],
      [0xc0, 0x80],
      [0xc1, 0xbf],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
      [0x00],
      [0xc3],
    )
    .map((bytes) => Buffer.from(bytes)),
  fc.uint8Array({ minLength: 1, maxLength: 24 }).map((bytes) => Buffer.from(bytes)),
);

/** Form-encodes a string as URLSearchParams would. */
export function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** One name or value of a form body, as bytes: properly encoded, raw, percent-mangled, or not UTF-8. */
export function formPart(text: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 4, arbitrary: text.map((s) => Buffer.from(formEncode(s), 'latin1')) },
    { weight: 1, arbitrary: text.map((s) => Buffer.from(s, 'utf8')) },
    { weight: 1, arbitrary: invalidUtf8 },
    {
      weight: 1,
      arbitrary: invalidUtf8.map((b) =>
        Buffer.from([...b].map((x) => `%${x.toString(16).padStart(2, '0').toUpperCase()}`).join(''), 'latin1'),
      ),
    },
  );
}

/**
 * A form body built from `fields` (name → arbitrary of a plausible value): each field present or
 * not, mostly plausible and sometimes hostile (mangled, not UTF-8, prototype keys), then now and
 * then extras: a field repeated, unknown and prototype-key names. Joined by '&' (at times ';' or '&&').
 */
export function hostileForm(fields: Readonly<Record<string, fc.Arbitrary<string>>>): fc.Arbitrary<Buffer> {
  const names = Object.keys(fields);
  const value = (name: string): fc.Arbitrary<Buffer> =>
    fc.oneof(
      { weight: 4, arbitrary: (fields[name] as fc.Arbitrary<string>).map((v) => Buffer.from(formEncode(v), 'latin1')) },
      { weight: 1, arbitrary: formPart(hostileText) },
    );
  const base = fc.tuple(
    ...names.map((name) =>
      fc.option(
        value(name).map((v) => [Buffer.from(name, 'latin1'), v] as const),
        { nil: undefined, freq: 6 },
      ),
    ),
  );
  const repeated = fc
    .constantFrom(...names)
    .chain((name) => value(name).map((v) => [Buffer.from(name, 'latin1'), v] as const));
  const odd = fc.tuple(formPart(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileText)), formPart(hostileText));
  const extras = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.oneof(repeated, odd), { minLength: 1, maxLength: 4 }) },
  );
  const separator = fc.constantFrom('&', '&', '&', '&', '&', ';', '&&');
  return fc.tuple(base, extras, separator, fc.boolean()).map(([present, more, sep, shuffle]) => {
    const pairs = [...present.filter((p) => p !== undefined), ...more] as (readonly [Buffer, Buffer])[];
    if (shuffle) pairs.reverse();
    return Buffer.concat(
      pairs.flatMap(([name, v], i) => [
        ...(i === 0 ? [] : [Buffer.from(sep, 'latin1')]),
        name,
        Buffer.from('=', 'latin1'),
        v,
      ]),
    );
  });
}

/**
 * A right form (or query) with one thing wrong: a field hostile, missing, empty or repeated, or a
 * prototype-key field added. Reaches the code behind the parsing that a wholly random form rarely does.
 */
export function nearlyRightForm(right: Readonly<Record<string, string>>): fc.Arbitrary<Buffer> {
  const names = Object.keys(right);
  const how = fc.constantFrom('hostile', 'hostile', 'hostile', 'missing', 'empty', 'repeated', 'prototype-key');
  return fc
    .tuple(fc.constantFrom(...names), how, formPart(hostileText), fc.constantFrom(...PROTOTYPE_KEYS))
    .map(([target, change, bad, key]) => {
      const pairs: Buffer[] = [];
      for (const name of names) {
        const value = Buffer.from(formEncode(right[name] as string), 'latin1');
        if (name !== target || change === 'repeated' || change === 'prototype-key')
          pairs.push(Buffer.concat([Buffer.from(`${name}=`, 'latin1'), value]));
        else if (change === 'hostile') pairs.push(Buffer.concat([Buffer.from(`${name}=`, 'latin1'), bad]));
        else if (change === 'empty') pairs.push(Buffer.from(`${name}=`, 'latin1'));
        if (name === target && change === 'repeated')
          pairs.push(Buffer.concat([Buffer.from(`${name}=`, 'latin1'), bad]));
      }
      if (change === 'prototype-key') pairs.push(Buffer.concat([Buffer.from(`${key}=`, 'latin1'), bad]));
      return Buffer.concat(pairs.flatMap((pair, i) => (i === 0 ? [pair] : [Buffer.from('&', 'latin1'), pair])));
    });
}

/** A JSON document that is hostile: deep nesting, prototype keys, huge numbers, odd strings, or broken text. */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('email', 'name', 'id'))
      .map(
        ([key, value, other]) => `{"${key}":${JSON.stringify(value)},"${other}":"a@b.co","${key}":{"polluted":true}}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1e999',
      '-1e999',
      '123456789012345678901234567890',
      '0.' + '1'.repeat(400),
      '"\\uD800"',
      '"\\u0000"',
      'NaN',
      'Infinity',
      '{"email":"a@b.co",}',
      '{"email":"a@b.co"',
      '{',
      '',
      ' ',
      'null',
      '[]',
      '"x"',
      '\uFEFF{}',
      '{"email":"a@b.co","email":"b@c.de"}',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({ email: hostileText, name: hostileText }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  },
);

/** Content types an attacker might send, right ones included, or none at all (undefined). */
export function contentTypes(right: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...right) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ...right.map((r) => r.toUpperCase()),
        ...right.map((r) => `${r}; charset=utf-8`),
        ...right.map((r) => `${r}; charset=latin1`),
        ...right.map((r) => `${r};;;`),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/xml',
        '*/*',
        '',
        ';',
        'application/',
        'application/json, application/x-www-form-urlencoded',
        'application/merge-patch+json',
        'text/html; charset=utf-8',
      ),
    },
    { weight: 1, arbitrary: hostileText.filter((s) => /^[\x20-\x7e]*$/.test(s)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** How a body reaches the server: whole, announced longer than sent and then cut off, or without length. */
export type Delivery = 'whole' | 'truncated-end' | 'truncated-destroy' | 'no-length';
export const delivery: fc.Arbitrary<Delivery> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Delivery>('whole') },
  { weight: 1, arbitrary: fc.constantFrom<Delivery>('truncated-end', 'truncated-destroy', 'no-length') },
);

/** The request fields of a delivery. */
export function delivered(body: Buffer, how: Delivery): Pick<RawRequest, 'body' | 'contentLength' | 'thenClose'> {
  switch (how) {
    case 'whole':
      return { body };
    case 'no-length':
      return { body: Buffer.alloc(0), contentLength: 'none' };
    case 'truncated-end':
      return { body, contentLength: body.length + 10, thenClose: 'end' };
    case 'truncated-destroy':
      return { body, contentLength: body.length + 10, thenClose: 'destroy' };
  }
}

/** Extra headers an attacker adds: duplicated Content-Type or Authorization, odd Accept, junk. */
export const junkHeaders: fc.Arbitrary<Array<[string, string | Buffer]>> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'accept',
        'accept-charset',
        'x-forwarded-for',
        'cookie',
        'if-match',
        'origin',
        'referer',
        'x-junk',
      ),
      fc.oneof(
        hostileText.filter((s) => /^[\x20-\x7e]*$/.test(s)),
        fc.constant('*/*'),
      ),
    ),
    fc.tuple(
      fc.constantFrom('x-junk', 'cookie', 'user-agent'),
      invalidUtf8.map((b) => Buffer.from(b.filter((x) => x >= 0x80))),
    ),
  ),
  { maxLength: 3 },
);

/** A short label of an answer for the run's summary: status and OAuth error or problem slug. */
export function outcomeOf(answer: RawAnswer | typeof NO_ANSWER): string {
  if (answer === NO_ANSWER) return 'no answer';
  const type = answer.headers['content-type'] ?? '';
  let what = '';
  if (/json/.test(type) && answer.status >= 400 && answer.body.length > 0) {
    try {
      const body = JSON.parse(answer.text) as { error?: string; type?: string };
      what = body.error ?? body.type?.replace('/problems/', '') ?? '';
    } catch {
      what = 'unparsable';
    }
  } else if (answer.status === 302 || answer.status === 303) {
    const location = answer.headers.location ?? '';
    what =
      /[?&]error=([a-z_]+)/.exec(location)?.[1] ??
      (/[?&]code=/.test(location) ? 'code' : location.startsWith('/') ? 'same-site' : 'redirect');
  } else if (/html/.test(type)) {
    what =
      /Error <code>([a-z_]+)<\/code>/.exec(answer.text)?.[1] ??
      (/action="[^"]*\/login"/.test(answer.text)
        ? 'sign-in page'
        : /action="[^"]*\/consent"/.test(answer.text)
          ? 'consent page'
          : 'page');
  }
  return `${answer.status}${what ? ` ${what}` : ''}`;
}

/** Answers the assertion can check; NO_ANSWER only where the request was cut off. */
export function answered(answer: RawAnswer | typeof NO_ANSWER, how: Delivery): answer is RawAnswer {
  if (answer === NO_ANSWER) {
    assert.ok(how === 'truncated-end' || how === 'truncated-destroy', 'a complete request always gets an answer');
    return false;
  }
  return true;
}
