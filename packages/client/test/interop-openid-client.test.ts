/**
 * Gatehouse as the authorization server of openid-client v6 (panva), code nobody here wrote:
 * RFC 8414 discovery (`algorithm: 'oauth2'`), code + PKCE through the real pages, refresh with
 * rotation, introspection, invalid_grant as its ResponseBodyError with status 400, and the code
 * delivered by response_mode=form_post read from the posted Request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

describe('interoperability: Gatehouse with openid-client', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
  });
  after(() => gatehouse.close());

  /** Discovery of a plain-http loopback issuer needs openid-client's documented allowInsecureRequests. */
  function discover(clientId: string, secret: string | null): Promise<client.Configuration> {
    const auth = secret === null ? client.None() : client.ClientSecretBasic(secret);
    return client.discovery(new URL(gatehouse.issuer), clientId, secret ?? undefined, auth, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
  }

  async function codeFlow(config: client.Configuration): ReturnType<typeof client.authorizationCodeGrant> {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope: 'contacts:read contacts:write',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const callback = await new UserAgent().authorize(url.href);
    return client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
  }

  test('code + PKCE, rotation and introspection for a confidential client; a replayed refresh token is invalid_grant with status 400', async () => {
    const registered = await gatehouse.addClient({ id: 'oc-confidential' });
    const config = await discover(registered.id, registered.secret);
    assert.equal(config.serverMetadata().issuer, gatehouse.issuer);
    const first = await codeFlow(config);
    assert.equal(first.scope, 'contacts:read contacts:write');
    assert.ok((first.expiresIn() ?? 0) > 0);
    const firstRefresh = first.refresh_token ?? assert.fail('a refresh token');

    const rotated = await client.refreshTokenGrant(config, firstRefresh);
    assert.ok(rotated.refresh_token && rotated.refresh_token !== firstRefresh);
    const introspection = await client.tokenIntrospection(config, rotated.refresh_token, {
      token_type_hint: 'refresh_token',
    });
    assert.equal(introspection.active, true);
    assert.equal(introspection.scope, 'contacts:read contacts:write');
    assert.equal((await client.tokenIntrospection(config, firstRefresh)).active, false);

    const error = await client.refreshTokenGrant(config, firstRefresh).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof client.ResponseBodyError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.error, 'invalid_grant');
    assert.equal(error.error_description, 'refresh token is past its rotation limit');
    // Reuse detection revoked the family: the rotated token is refused too, identically on retry.
    for (let attempt = 0; attempt < 2; attempt++) {
      await assert.rejects(client.refreshTokenGrant(config, rotated.refresh_token), {
        error: 'invalid_grant',
        status: 400,
        error_description: 'refresh token has been revoked',
      });
    }
  });

  test('a public client (token_endpoint_auth_method none) gets and refreshes tokens', async () => {
    const registered = await gatehouse.addClient({ id: 'oc-public', public: true });
    const config = await discover(registered.id, null);
    const first = await codeFlow(config);
    const rotated = await client.refreshTokenGrant(config, first.refresh_token ?? assert.fail('a refresh token'));
    assert.ok(rotated.access_token);
    const response = await fetch(`${gatehouse.apiBase}/contacts`, {
      headers: { authorization: `Bearer ${rotated.access_token}` },
    });
    assert.equal(response.status, 200, 'the REST API accepts the access token');
  });

  test('response_mode=form_post: openid-client takes the form the page posts to the callback as the authorization response', async () => {
    const registered = await gatehouse.addClient({ id: 'oc-form-post', public: true });
    const config = await discover(registered.id, null);
    assert.deepEqual(config.serverMetadata().response_modes_supported, ['query', 'form_post']);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      response_mode: 'form_post',
      scope: 'contacts:read',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const agent = new UserAgent();
    assert.equal(await agent.authorize(url.href), CALLBACK, 'the form posts to the redirect URI');
    const posted = agent.formPosted ?? assert.fail('the server answered with a form post');
    const callback = new Request(CALLBACK, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: posted,
    });
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, 'contacts:read');
    assert.ok(tokens.access_token);
  });
});
