import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, type Dialect } from './_dialects.js';
import {
  answered,
  assertCatalogAnswer,
  contentTypes,
  delivered,
  delivery,
  formEncode,
  fuzz,
  FUZZ_RUNS,
  hostileForm,
  hostileText,
  invalidUtf8,
  junkHeaders,
  outcomeOf,
  sendRaw,
  type RawRequest,
  withControlChar,
} from './_fuzz.js';
import { basicAuthorization, refresh, startTestServer, VERIFIER, type TestClient, type TestServer } from './_server.js';

/**
 * The token, introspection and revocation endpoints under random and hostile input: no 5xx, no
 * crash, and every error an RFC 6749 §5.2 body from the catalog. On both dialects: PostgreSQL
 * refuses text that SQLite stores (U+0000), so what reaches the store is fuzzed on each.
 */
for (const dialect of DIALECTS)
  describe(`fuzzing the OAuth endpoints: /token, /introspect, /revoke, /device_authorization [${dialect}]`, () =>
    fuzzOAuthEndpoints(dialect));

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function fuzzOAuthEndpoints(dialect: Dialect): void {
  const FORM = 'application/x-www-form-urlencoded';
  const REDIRECT_URI = 'https://app.example/callback';
  let server: TestServer;
  let confidential: TestClient;
  let publicClient: TestClient;
  let resourceServer: TestClient;
  /** Live credentials the fuzzer mixes in, so that requests get past authentication and parsing. */
  const refreshTokens: string[] = [];
  const accessTokens: string[] = [];
  const codes: string[] = [];
  const deviceCodes: string[] = [];

  before(async () => {
    server = await startTestServer({ dialect });
    confidential = await server.addClient({ id: 'fuzz-confidential', redirectUris: [REDIRECT_URI], rotationLimit: 2 });
    publicClient = await server.addClient({
      id: 'fuzz-public',
      public: true,
      redirectUris: [REDIRECT_URI],
      grantTypes: ['authorization_code', 'refresh_token', DEVICE_GRANT],
    });
    resourceServer = await server.addClient({ id: 'fuzz-resource-server', resourceServer: true });
    for (let i = 0; i < 12; i++) {
      const issued = await server.issueGrant(i % 2 === 0 ? confidential : publicClient, `subject-${i}`);
      refreshTokens.push(issued.refresh_token);
      accessTokens.push(issued.access_token);
      codes.push(
        await server.createCode(i % 2 === 0 ? confidential : publicClient, {
          verifier: VERIFIER,
          redirectUri: REDIRECT_URI,
        }),
      );
    }
    for (let i = 0; i < 4; i++) {
      const answer = await server.post('/device_authorization', {}, { as: publicClient });
      deviceCodes.push(((await answer.json()) as { device_code: string }).device_code);
    }
  });
  after(() => server.close());

  // --- what the fuzzer sends -----------------------------------------------------------------------

  const clients = (): TestClient[] => [confidential, publicClient, resourceServer];
  const anyToken = fc.oneof(
    fc.constantFrom(...Array.from({ length: 12 }, (_, i) => i)).map((i) => refreshTokens[i] as string),
    fc.constantFrom(...Array.from({ length: 12 }, (_, i) => i)).map((i) => accessTokens[i] as string),
    hostileText,
  );

  /** The parameters of the three endpoints, plausible values first. */
  const FIELDS = (): Record<string, fc.Arbitrary<string>> => ({
    grant_type: fc.constantFrom(
      'refresh_token',
      'authorization_code',
      'client_credentials',
      'password',
      'implicit',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      DEVICE_GRANT,
      'REFRESH_TOKEN',
    ),
    device_code: fc.oneof(
      fc.constantFrom(0, 1, 2, 3).map((i) => deviceCodes[i] as string),
      hostileText,
    ),
    refresh_token: anyToken,
    code: fc.oneof(
      fc.constantFrom(...Array.from({ length: 12 }, (_, i) => i)).map((i) => codes[i] as string),
      hostileText,
    ),
    redirect_uri: fc.constantFrom(
      REDIRECT_URI,
      `${REDIRECT_URI}/`,
      'https://evil.example/callback',
      'http://127.0.0.1:8765/callback',
    ),
    code_verifier: fc.constantFrom(VERIFIER, VERIFIER.slice(1), 'x'.repeat(43), 'x'.repeat(129)),
    scope: fc.constantFrom(
      'contacts:read',
      'contacts:write',
      'contacts:read contacts:write',
      'admin',
      '"',
      'a\u0001b',
      '  ',
    ),
    token: anyToken,
    token_type_hint: fc.constantFrom('refresh_token', 'access_token', 'id_token'),
    client_id: fc.oneof(
      fc.constantFrom('fuzz-confidential', 'fuzz-public', 'fuzz-resource-server', 'unknown-client'),
      withControlChar(fc.constantFrom('fuzz-confidential', 'fuzz-public')),
    ),
    client_secret: fc.oneof(
      fc.constant('').map(() => confidential.secret as string),
      fc.constantFrom('wrong-secret'),
    ),
  });

  /** Client authentication: none, right or wrong Basic, malformed Basic, two headers, another scheme. */
  const authorization: fc.Arbitrary<Array<[string, string | Buffer]>> = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(0, 2).map((i) => {
        const c = clients()[i] as TestClient;
        return [['authorization', basicAuthorization(c.id, c.secret as string)]];
      }),
    },
    {
      weight: 1,
      arbitrary: withControlChar(fc.constantFrom('fuzz-confidential', 'fuzz-resource-server')).map((id) => [
        ['authorization', basicAuthorization(id, confidential.secret as string)],
      ]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(hostileText, hostileText)
        .map(([id, secret]) => [
          ['authorization', `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString('base64')}`],
        ]),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          invalidUtf8,
          hostileText.map((s) => Buffer.from(s)),
        )
        .map((bytes) => [['authorization', `Basic ${bytes.toString('base64')}`]]),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'Basic',
          'Basic ',
          'Basic ===',
          'Basic Og==',
          'Basic OmFiYw==',
          'basic ZnV6ei1wdWJsaWM6',
          'Bearer abc',
          'Digest x',
          'Basic %%%',
        )
        .map((v) => [['authorization', v]]),
    },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => [
        ['authorization', basicAuthorization(confidential.id, confidential.secret as string)],
        ['authorization', 'Basic Og=='],
      ]),
    },
  ) as fc.Arbitrary<Array<[string, string | Buffer]>>;

  const endpoint = fc.constantFrom('/token', '/introspect', '/revoke', '/device_authorization');

  async function check(request: RawRequest, how: Parameters<typeof answered>[1]): Promise<string> {
    const answer = await sendRaw(server.url, request);
    if (answered(answer, how)) assertCatalogAnswer(answer, { kind: 'oauth', issuer: 'http://gatehouse.test' });
    return outcomeOf(answer);
  }

  /** The server still answers a well-formed request correctly: nothing the fuzzer sent broke it. */
  async function assertStillServing(): Promise<void> {
    const issued = await server.issueGrant(confidential, 'after-fuzzing');
    const rotated = await refresh(server, confidential, issued.refresh_token);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  }

  it('hostile form bodies (repeated, missing, odd-Unicode, non-UTF-8, prototype-key parameters) never get a 5xx, only catalog errors', async (t) => {
    await fuzz(
      t,
      'POST /token|/introspect|/revoke|/device_authorization with hostile form bodies',
      [endpoint, hostileForm(FIELDS()), contentTypes([FORM]), authorization, delivery, junkHeaders],
      async (path, body, contentType, auth, how, junk) => {
        const headers: Array<[string, string | Buffer]> = [...auth, ...junk];
        if (contentType !== undefined) headers.push(['content-type', contentType]);
        return check({ method: 'POST', target: path, headers, ...delivered(body, how) }, how);
      },
    );
    await assertStillServing();
  });

  it('a well-authenticated request with hostile values for each parameter gets a catalog error or a 200, never a 5xx', async (t) => {
    const parameter = fc.constantFrom(...Object.keys(FIELDS()));
    await fuzz(
      t,
      'POST /token|/introspect|/revoke, authenticated, one hostile parameter',
      [
        endpoint,
        fc.constantFrom('refresh_token', 'authorization_code', 'client_credentials'),
        parameter,
        fc.oneof(hostileText, fc.constantFrom('__proto__', 'constructor')),
        fc.boolean(),
      ],
      async (path, grantType, name, value, post) => {
        const form = new URLSearchParams({
          grant_type: grantType,
          refresh_token: refreshTokens[0] as string,
          code: codes[0] as string,
          redirect_uri: REDIRECT_URI,
          code_verifier: VERIFIER,
          token: refreshTokens[1] as string,
        });
        form.set(name, value);
        const headers: Array<[string, string]> = [['content-type', FORM]];
        if (post) {
          form.append('client_id', confidential.id);
          form.append('client_secret', confidential.secret as string);
        } else {
          headers.push(['authorization', basicAuthorization(confidential.id, confidential.secret as string)]);
        }
        return check({ method: 'POST', target: path, headers, body: Buffer.from(form.toString()) }, 'whole');
      },
    );
    await assertStillServing();
  });

  it('malformed HTTP (methods, targets, header bytes, lying lengths, oversized headers) on the OAuth paths gets catalog answers', async (t) => {
    const method = fc.constantFrom(
      'POST',
      'POST',
      'POST',
      'GET',
      'PUT',
      'DELETE',
      'PATCH',
      'OPTIONS',
      'FOO',
      'P OST',
      'post',
    );
    const target = fc
      .tuple(
        endpoint,
        fc.constantFrom(
          '',
          '?',
          '?grant_type=refresh_token',
          '?token=%FF%FE',
          '?a=1&a=2',
          '?__proto__[x]=1',
          '#frag',
          '%00',
          '/',
          '/..',
          '?x=\u00e9',
        ),
      )
      .map(([path, suffix]) => `${path}${suffix}`);
    const oddHeader = fc.oneof(
      fc.constant<Array<[string, string | Buffer]>>([]),
      fc.constantFrom<Array<[string, string | Buffer]>>(
        [
          ['content-type', FORM],
          ['content-type', 'application/json'],
        ],
        [['x-long', 'a'.repeat(20_000)]],
        [['x-ctl', Buffer.from([0x01, 0x7f])]],
        [['transfer-encoding', 'chunked']],
        [['transfer-encoding', 'gzip, chunked']],
        [['content-encoding', 'gzip']],
        [['expect', '100-continue']],
        [['content-length', '5']],
        [['content-length', '-1']],
        [['content-length', 'abc']],
      ),
    );
    await fuzz(
      t,
      'malformed HTTP on /token|/introspect|/revoke|/device_authorization',
      [method, target, oddHeader, hostileForm(FIELDS()), delivery],
      async (m, path, extra, body, how) => {
        // A framing header of its own may announce more body than comes: then the request is cut off
        // (FIN) after sending, as a client that gave up would, and may get no answer.
        const framing = extra.some(([name]) => name === 'content-length' || name === 'transfer-encoding');
        const request: RawRequest = {
          method: m,
          target: path,
          headers: [['content-type', FORM], ...extra],
          ...delivered(body, how),
          ...(framing ? { thenClose: 'end' } : {}),
        };
        const answer = await sendRaw(server.url, request);
        if (!answered(answer, framing && how === 'whole' ? 'truncated-end' : how)) return outcomeOf(answer);
        // A POST to an OAuth path is answered by the endpoint, or by the HTTP layer in its terms. Other
        // methods and paths are no route (a problem), unless the HTTP layer refused them first.
        const oauthPath = /^\/(token|introspect|revoke|device_authorization)(\?|#|$)/.test(path);
        assertCatalogAnswer(answer, {
          kind: m === 'POST' && oauthPath ? 'oauth' : oauthPath ? ['oauth', 'problem'] : 'problem',
          issuer: 'http://gatehouse.test',
        });
        return outcomeOf(answer);
      },
    );
    await assertStillServing();
  });

  it('values of every length up to and over the 16 KiB limit are answered (413 over it), never a 5xx', async (t) => {
    await fuzz(
      t,
      'POST /token with huge values',
      [endpoint, fc.nat({ max: 40_000 }), fc.constantFrom('refresh_token', 'token', 'client_id', 'scope', '__proto__')],
      async (path, size, name) => {
        const body = Buffer.from(`grant_type=refresh_token&${name}=${formEncode('é'.repeat(size / 2))}`);
        return check(
          {
            method: 'POST',
            target: path,
            headers: [
              ['content-type', FORM],
              ['authorization', basicAuthorization(confidential.id, confidential.secret as string)],
            ],
            body,
          },
          'whole',
        );
      },
      Math.ceil(FUZZ_RUNS / 4),
    );
    await assertStillServing();
  });
}
