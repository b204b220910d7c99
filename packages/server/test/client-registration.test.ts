import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OAuthErrorCode } from '@gatehouse/contract';
import { per } from '../src/abuse/rate-policies.js';
import { runCli } from '../src/cli/run.js';
import { configFromEnv } from '../src/config.js';
import { issueRegistrationToken } from '../src/oauth/clients/registration-tokens.js';
import { digestOf } from '../src/primitives/secrets.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { basicAuthorization, startTestServer, type TestServer } from './_server.js';
import { assertionFields, clientAssertion, clientKeyPair } from './_client-keys.js';

const LOOPBACK = 'http://127.0.0.1/callback';
const PUBLIC_AGENT = {
  client_name: 'Agent',
  redirect_uris: [LOOPBACK],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  scope: 'contacts:read openid',
};

function register(server: TestServer, body: unknown, token?: string): Promise<Response> {
  return fetch(`${server.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function manage(server: TestServer, uri: string, token: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(uri.replace(ISSUER, server.url), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function registered(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  assert.equal(response.status, 201, text);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return JSON.parse(text) as Record<string, unknown>;
}

async function assertTokenRefused(response: Response): Promise<void> {
  assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="gatehouse", error="invalid_token"$/);
  await assertOAuthError(response, { error: 'invalid_token' });
}

/** An initial access token, as `gatehouse registration-tokens issue` makes it, on the server's clock. */
async function issueInitialToken(server: TestServer, ttl = 86_400, uses = 1): Promise<string> {
  const issued = await issueRegistrationToken(server.context.store, { ttl, uses, now: server.clock.now() });
  return issued.initial_access_token;
}

/** Every refused metadata: [what, body, error, description]. */
const BAD_METADATA: readonly [string, unknown, OAuthErrorCode, string][] = [
  ['the body is not a JSON object', '[1]', 'invalid_client_metadata', 'client metadata must be a JSON object'],
  ['the body is not JSON', '{"client_name":', 'invalid_client_metadata', 'client metadata must be a JSON object'],
  ...(
    [
      ['redirect_uris', 'https://a.example/cb'],
      ['grant_types', 'authorization_code'],
      ['response_types', [7]],
      ['token_endpoint_auth_method', 1],
      ['client_name', 'a\u0000b'],
      ['client_name', 'x'.repeat(201)],
      ['scope', ' '],
      ['scope', 'contacts:read "x"'],
      ['client_uri', 'ftp://a.example/'],
      ['logo_uri', 'not a url'],
      ['tos_uri', 5],
      ['policy_uri', {}],
      ['contacts', 'ops@a.example'],
      ['software_id', true],
      ['software_version', ['1']],
      ['profile', 'fapi3'],
      ['profile', true],
    ] as const
  ).map(([field, value]): [string, unknown, OAuthErrorCode, string] => [
    `${field} is ${JSON.stringify(value).slice(0, 30)}`,
    { ...PUBLIC_AGENT, [field]: value },
    'invalid_client_metadata',
    `client metadata '${field}' has a value of the wrong type or form`,
  ]),
  [
    'no redirect_uris for authorization_code (RFC 7591 §2)',
    { ...PUBLIC_AGENT, redirect_uris: [] },
    'invalid_redirect_uri',
    'redirect_uris must name at least one URI for the authorization_code grant',
  ],
  ...['/relative', 'https://a.example/cb#frag', 'https://user:pw@a.example/cb'].map(
    (uri): [string, unknown, OAuthErrorCode, string] => [
      `redirect URI ${uri} (RFC 6749 §3.1.2)`,
      { ...PUBLIC_AGENT, redirect_uris: [uri] },
      'invalid_redirect_uri',
      'each redirect URI must be an absolute URI without a fragment or credentials',
    ],
  ),
  ...['http://app.example/cb', 'http://localhost/cb', 'com.example.app:/cb'].map(
    (uri): [string, unknown, OAuthErrorCode, string] => [
      `redirect URI ${uri}: neither https nor a loopback IP literal (RFC 8252 §7.3, §8.3)`,
      { ...PUBLIC_AGENT, redirect_uris: [uri] },
      'invalid_redirect_uri',
      'a redirect URI must use https, or http on the loopback address 127.0.0.1 or [::1]',
    ],
  ),
  [
    'a grant type the server does not offer',
    { ...PUBLIC_AGENT, grant_types: ['password'] },
    'invalid_client_metadata',
    'grant_types names a grant type that registered clients cannot use',
  ],
  [
    'response_types code without authorization_code (RFC 7591 §2.1)',
    { ...PUBLIC_AGENT, grant_types: ['refresh_token'] },
    'invalid_client_metadata',
    'response_types must be code exactly when grant_types includes authorization_code',
  ],
  [
    'response_types token (RFC 7591 §2.1)',
    { ...PUBLIC_AGENT, response_types: ['code', 'token'] },
    'invalid_client_metadata',
    'response_types must be code exactly when grant_types includes authorization_code',
  ],
  [
    'token_endpoint_auth_method client_secret_jwt',
    { ...PUBLIC_AGENT, token_endpoint_auth_method: 'client_secret_jwt' },
    'invalid_client_metadata',
    'token_endpoint_auth_method must be none, client_secret_basic, client_secret_post or private_key_jwt',
  ],
  [
    'token_endpoint_auth_method private_key_jwt without jwks or jwks_uri (RFC 7523 §2.2)',
    { ...PUBLIC_AGENT, token_endpoint_auth_method: 'private_key_jwt' },
    'invalid_client_metadata',
    "client metadata 'jwks' has a value of the wrong type or form",
  ],
  [
    'jwks holding a private key (RFC 7591 §2: public keys)',
    {
      ...PUBLIC_AGENT,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] },
    },
    'invalid_client_metadata',
    "client metadata 'jwks' has a value of the wrong type or form",
  ],
  [
    'both jwks and jwks_uri (RFC 7591 §2: MUST NOT both)',
    {
      ...PUBLIC_AGENT,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }] },
      jwks_uri: 'https://a.example/jwks.json',
    },
    'invalid_client_metadata',
    "client metadata 'jwks_uri' has a value of the wrong type or form",
  ],
  [
    'a jwks_uri over plain http',
    { ...PUBLIC_AGENT, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://a.example/jwks.json' },
    'invalid_client_metadata',
    "client metadata 'jwks_uri' has a value of the wrong type or form",
  ],
  [
    'a public client with keys',
    { ...PUBLIC_AGENT, jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }] } },
    'invalid_client_metadata',
    "client metadata 'jwks' has a value of the wrong type or form",
  ],
  ...(
    [
      ['a public client', {}, 'profile fapi2 is for confidential clients only, not token_endpoint_auth_method none'],
      [
        'a client of a secret without keys',
        { token_endpoint_auth_method: 'client_secret_basic' },
        'profile fapi2 needs token_endpoint_auth_method private_key_jwt with jwks or jwks_uri',
      ],
      [
        'a client of a secret with keys',
        {
          token_endpoint_auth_method: 'client_secret_post',
          jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' }] },
        },
        'profile fapi2 needs token_endpoint_auth_method private_key_jwt, never a client secret',
      ],
    ] as const
  ).map(([what, fields, description]): [string, unknown, OAuthErrorCode, string] => [
    `profile fapi2 for ${what}: the compliance check of the CLI and admin API (FAPI 2.0 §5.3.2.1, §5.4.1)`,
    { ...PUBLIC_AGENT, ...fields, profile: 'fapi2' },
    'invalid_client_metadata',
    description,
  ]),
  [
    'a public client asking for client_credentials',
    { ...PUBLIC_AGENT, grant_types: ['authorization_code', 'client_credentials'] },
    'invalid_client_metadata',
    'a public client (token_endpoint_auth_method none) cannot use client_credentials',
  ],
  [
    'a scope the server does not offer',
    { ...PUBLIC_AGENT, scope: 'contacts:read admin' },
    'invalid_client_metadata',
    'scope names a scope this server does not offer',
  ],
  [
    'a confidential client without an initial access token (open mode)',
    { ...PUBLIC_AGENT, token_endpoint_auth_method: 'client_secret_basic' },
    'invalid_client_metadata',
    'only a registration with an initial access token may register a confidential client',
  ],
  [
    'token_endpoint_auth_method left out: client_secret_basic by default (RFC 7591 §2)',
    { redirect_uris: [LOOPBACK] },
    'invalid_client_metadata',
    'only a registration with an initial access token may register a confidential client',
  ],
];

for (const dialect of DIALECTS) {
  describe(`dynamic client registration, RFC 7591 and RFC 7592 (${dialect})`, () => {
    let open: TestServer;
    let token: TestServer;
    before(async () => {
      [open, token] = await Promise.all([
        startTestServer({ dialect, clientRegistration: 'open' }),
        startTestServer({ dialect, clientRegistration: 'token' }),
      ]);
    });
    after(async () => {
      await Promise.all([open?.close(), token?.close()]);
    });

    it('RFC 7591 §3.2.1: an open registration of a public loopback client answers 201 with its client information, no secret', async () => {
      const info = await registered(await register(open, { ...PUBLIC_AGENT, extension_field: 'ignored (§2)' }));
      const id = info.client_id as string;
      assert.deepEqual(
        { ...info, client_id: 'id', registration_access_token: 'rat' },
        {
          client_id: 'id',
          client_id_issued_at: open.clock.now(),
          ...PUBLIC_AGENT,
          profile: 'none',
          registration_access_token: 'rat',
          registration_client_uri: `${ISSUER}/register/${id}`,
        },
      );
      // Stored as a digest only; the client exists with the registered metadata.
      const registration = await open.context.store.findClientRegistration(id);
      assert.equal(registration?.accessTokenDigest, digestOf(info.registration_access_token as string));
      const client = await open.context.store.findClient(id);
      assert.equal(client?.secretDigest, null);
      assert.deepEqual(client?.redirectUris, [LOOPBACK]);
      const events = await open.context.store.listAuditEvents({ event: 'client_registered', limit: 10 });
      assert.deepEqual(
        events.map((e) => e.clientId),
        [id],
      );
    });

    it("refresh tokens for agents: a public client gets the agents' replay window; naming grant_types without refresh_token means no refresh token", async () => {
      const { grant_types: _omitted, ...withoutGrantTypes } = PUBLIC_AGENT;
      const agent = await registered(await register(open, withoutGrantTypes));
      const stored = await open.context.store.findClient(agent.client_id as string);
      assert.deepEqual(stored?.grantTypes, ['authorization_code', 'refresh_token']);
      assert.equal(stored?.policy.replayWindow, 60);
      const declining = await registered(
        await register(open, { ...PUBLIC_AGENT, grant_types: ['authorization_code'] }),
      );
      const storedDeclining = await open.context.store.findClient(declining.client_id as string);
      assert.deepEqual(storedDeclining?.grantTypes, ['authorization_code']);
    });

    it('RFC 7591 §2: scope left out registers every scope the server offers; a public client without grant_types gets refresh_token too (§3.2.1); [::1] and https redirect URIs are accepted', async () => {
      const info = await registered(
        await register(open, {
          redirect_uris: ['http://[::1]:8080/cb', 'https://agent.example/cb'],
          token_endpoint_auth_method: 'none',
        }),
      );
      assert.deepEqual(info.grant_types, ['authorization_code', 'refresh_token']);
      assert.deepEqual(info.response_types, ['code']);
      assert.deepEqual(info.client_name, undefined);
      assert.deepEqual((info.scope as string).split(' ').sort(), [
        'contacts:read',
        'contacts:write',
        'email',
        'groups',
        'offline_access',
        'openid',
        'profile',
        'roles',
      ]);
    });

    it('RFC 7591 §3.2.2: bad metadata in every field answers its catalog error, and registers nothing', async () => {
      const before = (await open.context.store.listClients()).length;
      for (const [what, body, error, description] of BAD_METADATA) {
        await assertOAuthError(await register(open, body), { error, description }).catch((e: Error) => {
          throw new Error(`${what}: ${e.message}`);
        });
      }
      const form = await fetch(`${open.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_name=x',
      });
      await assertOAuthError(form, { error: 'invalid_request', description: 'request body must be application/json' });
      assert.equal((await open.context.store.listClients()).length, before);
    });

    it('gatehouse registration-tokens issue prints an initial access token once, stored as a digest with its expiry and uses', async () => {
      const out: string[] = [];
      const code = await runCli(
        ['registration-tokens', 'issue', '--expires-in', '2h', '--uses', '3'],
        { DATABASE_URL: token.databaseUrl, ISSUER },
        { out: (t) => out.push(t), err: (t) => out.push(t) },
      );
      assert.equal(code, 0, out.join('\n'));
      const printed = JSON.parse(out.join('\n')) as { initial_access_token: string; expires_at: string; uses: number };
      const stored = await token.context.store.findRegistrationToken(digestOf(printed.initial_access_token));
      assert.equal(stored?.maxUses, 3);
      assert.equal(stored.expiresAt - stored.createdAt, 7200);
      assert.equal(printed.expires_at, new Date(stored.expiresAt * 1000).toISOString());
      assert.equal(await token.context.store.findRegistrationToken(printed.initial_access_token), undefined);
    });

    it('RFC 7591 §3: in token mode a registration needs a live, unused initial access token, else 401 invalid_token', async () => {
      await assertTokenRefused(await register(token, PUBLIC_AGENT));
      await assertTokenRefused(await register(token, PUBLIC_AGENT, 'not-a-token'));
      const once = await issueInitialToken(token);
      await registered(await register(token, PUBLIC_AGENT, once));
      await assertTokenRefused(await register(token, PUBLIC_AGENT, once));
      const short = await issueInitialToken(token, 60, 5);
      token.clock.advance(61);
      await assertTokenRefused(await register(token, PUBLIC_AGENT, short));
      const refused = await token.context.store.listAuditEvents({ event: 'registration_refused', limit: 10 });
      assert.equal(refused.length, 4);
      assert.ok(refused.every((e) => e.reason === 'initial_access_token_invalid'));
    });

    it('RFC 7591 §3.2.1: with an initial access token a confidential client gets a secret, which the token endpoint accepts', async () => {
      const initial = await issueInitialToken(token);
      const info = await registered(
        await register(
          token,
          {
            client_name: 'Backend',
            grant_types: ['client_credentials'],
            response_types: [],
            token_endpoint_auth_method: 'client_secret_basic',
            scope: 'contacts:read',
          },
          initial,
        ),
      );
      assert.equal(info.client_secret_expires_at, 0);
      const id = info.client_id as string;
      const answer = await token.post(
        '/token',
        { grant_type: 'client_credentials', scope: 'contacts:read' },
        { headers: { authorization: basicAuthorization(id, info.client_secret as string) } },
      );
      assert.equal(answer.status, 200, await answer.text());
    });

    it('RFC 7591 §2, RFC 7523 §2.2: a client of private_key_jwt registers its jwks, gets no secret, and authenticates with an assertion', async () => {
      const keys = await clientKeyPair();
      const info = await registered(
        await register(
          token,
          {
            client_name: 'Signed backend',
            grant_types: ['client_credentials'],
            response_types: [],
            token_endpoint_auth_method: 'private_key_jwt',
            jwks: keys.jwks,
            scope: 'contacts:read',
          },
          await issueInitialToken(token),
        ),
      );
      assert.equal(info.client_secret, undefined);
      assert.equal(info.token_endpoint_auth_method, 'private_key_jwt');
      assert.deepEqual(info.jwks, keys.jwks);
      const id = info.client_id as string;
      const assertion = await clientAssertion(keys, id, ISSUER, token.clock.now());
      const answer = await token.post('/token', {
        grant_type: 'client_credentials',
        scope: 'contacts:read',
        client_id: id,
        ...assertionFields(assertion),
      });
      assert.equal(answer.status, 200, await answer.text());
    });

    it('profile (a Gatehouse extension, RFC 7591 §2): fapi2 registers a private_key_jwt client held to FAPI 2.0 and is echoed; RFC 7592 updates keep it and cannot lower it', async () => {
      const keys = await clientKeyPair('ES256');
      const metadata = {
        client_name: 'Bank backend',
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: keys.jwks,
        scope: 'contacts:read',
      };
      const info = await registered(
        await register(token, { ...metadata, profile: 'fapi2' }, await issueInitialToken(token)),
      );
      assert.equal(info.profile, 'fapi2');
      assert.equal(info.client_secret, undefined);
      const id = info.client_id as string;
      assert.equal((await token.context.store.findClient(id))?.profile, 'fapi2');
      // Held to it: a token request without a DPoP proof is refused (FAPI 2.0 §5.3.2.1).
      const assertion = await clientAssertion(keys, id, ISSUER, token.clock.now());
      await assertOAuthError(
        await token.post('/token', { grant_type: 'client_credentials', client_id: id, ...assertionFields(assertion) }),
        {
          error: 'invalid_dpop_proof',
          description: 'this client must send a DPoP proof (dpop_bound_access_tokens or profile fapi2)',
        },
      );
      const uri = info.registration_client_uri as string;
      const rat = info.registration_access_token as string;
      assert.equal(((await (await manage(token, uri, rat)).json()) as { profile: string }).profile, 'fapi2');
      // RFC 7592 §2.2: left out, the profile is kept (and shown); `none` is refused, nothing changes.
      const kept = await manage(token, uri, rat, 'PUT', { ...metadata, client_id: id, client_name: 'Bank 2' });
      assert.equal(kept.status, 200, await kept.clone().text());
      assert.deepEqual(
        (({ profile, client_name }) => ({ profile, client_name }))((await kept.json()) as Record<string, unknown>),
        { profile: 'fapi2', client_name: 'Bank 2' },
      );
      await assertOAuthError(await manage(token, uri, rat, 'PUT', { ...metadata, client_id: id, profile: 'none' }), {
        error: 'invalid_client_metadata',
        description: 'profile fapi2 cannot be lowered at the client configuration endpoint; an operator may change it',
      });
      assert.equal((await token.context.store.findClient(id))?.profile, 'fapi2');
      // A client registered without it may take it, checked as a registration is.
      const plain = await registered(await register(token, metadata, await issueInitialToken(token)));
      assert.equal(plain.profile, 'none');
      const raised = await manage(
        token,
        plain.registration_client_uri as string,
        plain.registration_access_token as string,
        'PUT',
        {
          ...metadata,
          client_id: plain.client_id,
          profile: 'fapi2',
        },
      );
      assert.equal(raised.status, 200, await raised.clone().text());
      assert.equal((await token.context.store.findClient(plain.client_id as string))?.profile, 'fapi2');
    });

    it('RFC 7592 §2.1, §2.2, §2.3: the registration access token reads, replaces and deletes its own client only', async () => {
      const info = await registered(await register(open, PUBLIC_AGENT));
      const other = await registered(await register(open, PUBLIC_AGENT));
      const uri = info.registration_client_uri as string;
      const rat = info.registration_access_token as string;
      const read = await manage(open, uri, rat);
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), info);
      // §3: a wrong token, another client's token, or an unknown client: 401.
      await assertTokenRefused(await manage(open, uri, 'wrong'));
      await assertTokenRefused(await manage(open, uri, other.registration_access_token as string));
      await assertTokenRefused(await manage(open, `${ISSUER}/register/nobody`, rat));

      const replacement = {
        ...PUBLIC_AGENT,
        client_id: info.client_id,
        client_name: 'Agent 2',
        redirect_uris: ['https://a.example/cb'],
      };
      for (const [body, error] of [
        [{ ...replacement, client_id: other.client_id }, 'invalid_client_metadata'],
        [{ ...replacement, token_endpoint_auth_method: 'client_secret_post' }, 'invalid_client_metadata'],
        [{ ...replacement, client_secret: 'guess' }, 'invalid_client_metadata'],
        [{ ...replacement, redirect_uris: ['http://a.example/cb'] }, 'invalid_redirect_uri'],
      ] as const)
        await assertOAuthError(await manage(open, uri, rat, 'PUT', body), { error });
      assert.deepEqual(await (await manage(open, uri, rat)).json(), info, 'nothing changed by a refused update');

      const updated = await manage(open, uri, rat, 'PUT', replacement);
      assert.equal(updated.status, 200);
      assert.equal(((await updated.json()) as { client_name: string }).client_name, 'Agent 2');
      const client = await open.context.store.findClient(info.client_id as string);
      assert.deepEqual(client?.redirectUris, ['https://a.example/cb']);

      // A DELETE that names a JSON type without a body is a DELETE all the same.
      const deleted = await fetch(uri.replace(ISSUER, open.url), {
        method: 'DELETE',
        headers: { authorization: `Bearer ${rat}`, 'content-type': 'application/json' },
      });
      assert.equal(deleted.status, 204);
      assert.equal(await open.context.store.findClient(info.client_id as string), undefined);
      await assertTokenRefused(await manage(open, uri, rat));
    });
  });
}

describe('dynamic client registration: policy and limits', () => {
  it('CLIENT_REGISTRATION is off, token or open, off when unset; anything else stops the server from starting', () => {
    assert.equal(configFromEnv({}).clientRegistration, 'off');
    assert.equal(configFromEnv({ CLIENT_REGISTRATION: 'open' }).clientRegistration, 'open');
    assert.throws(() => configFromEnv({ CLIENT_REGISTRATION: 'yes' }), /CLIENT_REGISTRATION is off, token or open/);
  });

  it('CLIENT_REGISTRATION=off (the default) serves no /register, and the metadata names no registration_endpoint (RFC 8414 §2)', async () => {
    const server = await startTestServer();
    try {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata.registration_endpoint, undefined);
      assert.equal((await register(server, PUBLIC_AGENT)).status, 404);
    } finally {
      await server.close();
    }
  });

  it('registrations are limited per address (register_address): past the limit, 429 with Retry-After', async () => {
    const server = await startTestServer({ clientRegistration: 'open', rateLimits: { register_address: per(2, 'h') } });
    try {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata.registration_endpoint, `${ISSUER}/register`);
      await registered(await register(server, PUBLIC_AGENT));
      await registered(await register(server, PUBLIC_AGENT));
      const limited = await register(server, PUBLIC_AGENT);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      await assertOAuthError(limited, { error: 'temporarily_unavailable', status: 429 });
    } finally {
      await server.close();
    }
  });
});
