import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, type Dialect } from './_dialects.js';
import { pkce } from './_authorize.js';
import { CONTROL_CHARS, fuzz, hostileText, NO_ANSWER, outcomeOf, sendRaw, type RawAnswer } from './_fuzz.js';
import { startTestServer, type TestServer } from './_server.js';

/**
 * The redirect URI rule under hostile input, against a listening server: no `redirect_uri` ever
 * gets a 5xx, and every redirect goes to a registered URI byte for byte (RFC 6749 §3.1.2.3), the
 * port aside for a native client's loopback IP literal URI (RFC 8252 §7.3; not localhost, §8.3),
 * followed only by the response parameters. The inputs are registered URIs changed a little (a
 * control, a space, a slash, an `@`, another port, another case) and random strings.
 */
for (const dialect of DIALECTS)
  describe(`fuzzing redirect_uri at GET /authorize (RFC 6749 §3.1.2.3, RFC 8252 §7.3, §8.3) [${dialect}]`, () =>
    fuzzRedirectUris(dialect));

/** The redirect URIs each client registered; `native` is public, `web` confidential. */
const REGISTERED = {
  native: [
    'http://127.0.0.1:3299/cb',
    'http://[::1]/cb?x=1',
    'http://localhost:3299/cb',
    'com.example.app:/oauth',
    'https://app.example/cb',
  ],
  web: ['http://127.0.0.1:3299/cb', 'https://web.example/Callback?tenant=7'],
} as const;
type ClientId = keyof typeof REGISTERED;

/** The parameters an authorization response may append (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2). */
const RESPONSE_PARAMETERS = new Set(['code', 'state', 'iss', 'error', 'error_description', 'error_uri']);
const INSERTED = [
  ...CONTROL_CHARS,
  '\t',
  '\n',
  '\r',
  ' ',
  '/',
  '@',
  ':',
  '#',
  '\\',
  '%',
  '.',
  'é',
  '日',
  '\uD800',
  '9',
];

/** A registered URI changed a little: one character inserted, removed or its case changed, or another port. */
const nearlyRegistered: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...REGISTERED.native, ...REGISTERED.web),
    fc.constantFrom('insert', 'remove', 'case', 'port', 'none'),
    fc.nat(),
    fc.constantFrom(...INSERTED),
    fc.stringMatching(/^\d{0,6}$/),
  )
  .map(([uri, change, at, inserted, port]) => {
    const i = at % (uri.length + 1);
    switch (change) {
      case 'insert':
        return `${uri.slice(0, i)}${inserted}${uri.slice(i)}`;
      case 'remove':
        return `${uri.slice(0, i)}${uri.slice(i + 1)}`;
      case 'case': {
        const c = uri.charAt(i);
        return `${uri.slice(0, i)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${uri.slice(i + 1)}`;
      }
      case 'port':
        return uri.replace(/^(http:\/\/(?:127\.0\.0\.1|\[::1\]|localhost))(:\d+)?/, `$1:${port}`);
      case 'none':
        return uri;
    }
  });

const redirectUri: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: nearlyRegistered },
  { weight: 1, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
);

/** How the value travels: form-encoded as a browser would, or with raw bytes that are not UTF-8 appended. */
const encoding = fc.constantFrom('encoded', 'encoded', 'encoded', '%00', '%FF', '%C0%80', '%0D%0A');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The patterns a Location may follow: each registered URI, its port free for a native loopback IP literal. */
function allowedLocations(client: ClientId): RegExp[] {
  return REGISTERED[client].map((uri) => {
    const separator = !uri.includes('?') ? '?' : /[?&]$/.test(uri) ? '' : '&';
    const loopback = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::\d+)?(.*)$/.exec(uri);
    const start =
      client === 'native' && loopback
        ? `${escapeRegExp(loopback[1] as string)}(?::\\d{1,5})?${escapeRegExp(loopback[2] as string)}`
        : escapeRegExp(uri);
    // After the URI only the response parameters, as URLSearchParams writes them.
    return new RegExp(`^${start}${escapeRegExp(separator)}([A-Za-z0-9%&=._*+-]*)$`);
  });
}

function assertRegisteredLocation(answer: RawAnswer, client: ClientId, sent: string): void {
  const location = answer.headers.location ?? '';
  const tail = allowedLocations(client)
    .map((pattern) => pattern.exec(location))
    .find((match) => match !== null)?.[1];
  assert.ok(tail !== undefined, `a Location that is a URI registered for ${client}: ${location} (sent ${sent})`);
  for (const name of new URLSearchParams(tail).keys())
    assert.ok(RESPONSE_PARAMETERS.has(name), `only response parameters after the URI: ${location}`);
}

function fuzzRedirectUris(dialect: Dialect): void {
  const { challenge } = pkce();
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ dialect });
    await server.addClient({
      id: 'native',
      public: true,
      scope: ['contacts:read'],
      redirectUris: [...REGISTERED.native],
    });
    await server.addClient({ id: 'web', redirectUris: [...REGISTERED.web] });
  });
  after(() => server.close());

  it('no redirect_uri gets a 5xx, or a Location but a registered URI and the response parameters', async (t) => {
    let redirects = 0;
    await fuzz(
      t,
      `redirect_uri at GET /authorize [${dialect}]`,
      [
        fc.constantFrom<ClientId>('native', 'web'),
        redirectUri,
        encoding,
        fc.constantFrom('token', 'token', 'code'),
        fc.string({ unit: 'binary', maxLength: 40 }),
      ],
      async (client, uri, how, responseType, state) => {
        const query = new URLSearchParams({
          response_type: responseType,
          client_id: client,
          state,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        });
        const value = new URLSearchParams({ redirect_uri: uri }).toString();
        const target = `/authorize?${query}&${value}${how === 'encoded' ? '' : how}`;
        const answer = await sendRaw(server.url, { method: 'GET', target });
        assert.ok(answer !== NO_ANSWER, 'a complete request always gets an answer');
        assert.ok(
          answer.status < 500,
          `no 5xx for ${JSON.stringify(uri)}: ${answer.status} ${answer.text.slice(0, 200)}`,
        );
        if (answer.status === 302 || answer.status === 303) {
          redirects += 1;
          assertRegisteredLocation(answer, client, JSON.stringify(uri));
        } else assert.equal(answer.headers.location, undefined, `no Location without a redirect: ${answer.status}`);
        return outcomeOf(answer);
      },
    );
    assert.ok(redirects > 0, 'some inputs matched a registered URI and were redirected to');
  });
}
