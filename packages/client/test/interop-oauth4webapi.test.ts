/**
 * Gatehouse as the authorization server of oauth4webapi (panva), code nobody here wrote: discovery,
 * the authorization code flow with PKCE through the real sign-in and consent pages, refresh with
 * rotation, introspection, and invalid_grant arriving as its ResponseBodyError with status 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test server is plain http on loopback

describe('interoperability: Gatehouse with oauth4webapi', () => {
  let gatehouse: Gatehouse;
  let as: oauth.AuthorizationServer;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    const issuer = new URL(gatehouse.issuer);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
  });
  after(() => gatehouse.close());

  async function codeFlow(client: oauth.Client, clientAuth: oauth.ClientAuth): Promise<oauth.TokenEndpointResponse> {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint ?? assert.fail('no authorization_endpoint'));
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      scope: 'contacts:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = new URL(await new UserAgent().authorize(url.href));
    const params = oauth.validateAuthResponse(as, client, callback, state); // checks state and RFC 9207 iss
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      CALLBACK,
      codeVerifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  }

  test('the metadata is accepted as RFC 8414 metadata of this issuer', () => {
    assert.equal(as.issuer, gatehouse.issuer);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
  });

  test('code + PKCE, rotation, introspection; a replayed refresh token is a ResponseBodyError invalid_grant with status 400', async () => {
    const registered = await gatehouse.addClient({ id: 'o4w-confidential' });
    const client: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.ClientSecretBasic(registered.secret ?? '');
    const first = await codeFlow(client, clientAuth);
    assert.equal(first.token_type, 'bearer'); // oauth4webapi lower-cases it
    assert.equal(first.scope, 'contacts:read');
    const firstRefresh = first.refresh_token ?? assert.fail('a refresh token');

    const rotated = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, firstRefresh, insecure),
    );
    assert.ok(rotated.refresh_token && rotated.refresh_token !== firstRefresh, 'a new refresh token');

    const active = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, rotated.refresh_token, {
        additionalParameters: { token_type_hint: 'refresh_token' },
        ...insecure,
      }),
    );
    assert.equal(active.active, true);
    assert.equal(active.client_id, registered.id);
    // RFC 7662 §2.2: the user's opaque subject, never the username.
    assert.equal(active.sub, (await gatehouse.server.context.store.findUser('alice'))?.subject);
    const used = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, clientAuth, firstRefresh, insecure),
    );
    assert.deepEqual(used.active, false);

    const replay = await oauth.refreshTokenGrantRequest(as, client, clientAuth, firstRefresh, insecure);
    const error = await oauth.processRefreshTokenResponse(as, client, replay).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof oauth.ResponseBodyError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.error, 'invalid_grant');
    assert.equal(error.error_description, 'refresh token is past its rotation limit');
    assert.equal(error.cause.error_uri, `${gatehouse.issuer}/problems/invalid-grant`);
  });

  test('a public client: code + PKCE with client_id only, then a refresh; after revocation, invalid_grant again', async () => {
    const registered = await gatehouse.addClient({ id: 'o4w-public', public: true });
    const client: oauth.Client = { client_id: registered.id, token_endpoint_auth_method: 'none' };
    const first = await codeFlow(client, oauth.None());
    const refreshToken = first.refresh_token ?? assert.fail('a refresh token');
    const revoked = await fetch(`${gatehouse.issuer}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshToken, client_id: registered.id }).toString(),
    });
    assert.equal(revoked.status, 200);
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure);
    await assert.rejects(
      oauth.processRefreshTokenResponse(as, client, response),
      (e: unknown) =>
        e instanceof oauth.ResponseBodyError &&
        e.status === 400 &&
        e.error === 'invalid_grant' &&
        e.error_description === 'refresh token has been revoked',
    );
  });
});
