/**
 * Gatehouse as an OpenID Provider for oauth4webapi (panva) as a public relying party (PKCE, no
 * secret), with OpenID Connect discovery: the ID token with its nonce, ES256 and RS256 signatures
 * checked against jwks_uri, userinfo for the ID token's subject, refresh with a new ID token, and
 * the account page's removal ending the grant.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addUser } from '@gatehouse/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { CALLBACK, PASSWORD, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { hidden, UserAgent } from './_browser.js';
import { clientIdOnAccountPage } from './_oidc-browser.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test server is plain http on loopback

describe('interoperability: Gatehouse as an OpenID Provider for oauth4webapi (public client)', () => {
  let gatehouse: Gatehouse;
  let as: oauth.AuthorizationServer;
  before(async () => {
    gatehouse = await startGatehouse();
    await addUser(gatehouse.server.context.store, 'alice', PASSWORD, gatehouse.clock.now(), {
      preferred_username: 'alice',
      email: 'alice@example.com',
      email_verified: false,
    });
    const issuer = new URL(gatehouse.issuer);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }),
    );
  });
  after(() => gatehouse.close());

  async function signIn(client: oauth.Client, browser: UserAgent, nonce = oauth.generateRandomNonce()) {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint ?? assert.fail('no authorization_endpoint'));
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = new URL(await browser.authorize(url.href));
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      CALLBACK,
      codeVerifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    // oauth4webapi leaves the signature of an ID token from the token endpoint to the caller (OIDC
    // Core §3.1.3.7 allows it over TLS): checked here against jwks_uri, with the client's algorithm.
    await jwtVerify(tokens.id_token as string, createRemoteJWKSet(new URL(as.jwks_uri as string)), {
      issuer: as.issuer,
      audience: client.client_id,
      algorithms: [client.id_token_signed_response_alg as string],
    });
    return tokens;
  }

  for (const alg of ['RS256', 'ES256'] as const)
    test(`sign-in with an ${alg} ID token, userinfo for its subject, refresh with a new ID token`, async () => {
      const registered = await gatehouse.addClient({
        id: `o4w-public-${alg}`,
        public: true,
        scope: ['openid', 'profile', 'email'],
        idTokenAlg: alg,
      });
      const client: oauth.Client = { client_id: registered.id, id_token_signed_response_alg: alg };
      const tokens = await signIn(client, new UserAgent());
      const claims = oauth.getValidatedIdTokenClaims(tokens) ?? assert.fail('ID token claims');
      assert.equal(claims.preferred_username, 'alice');
      const info = await oauth.processUserInfoResponse(
        as,
        client,
        claims.sub,
        await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
      );
      assert.equal(info.email, 'alice@example.com');
      assert.equal(info.email_verified, false);
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token as string, insecure),
      );
      assert.equal(oauth.getValidatedIdTokenClaims(refreshed)?.sub, claims.sub);
    });

  test('a mismatched nonce is not accepted', async () => {
    const registered = await gatehouse.addClient({ id: 'o4w-nonce', public: true, scope: ['openid'] });
    const client: oauth.Client = { client_id: registered.id, id_token_signed_response_alg: 'RS256' };
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      scope: 'openid',
      nonce: 'sent',
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = new URL(await new UserAgent().authorize(url.href));
    const params = oauth.validateAuthResponse(as, client, callback);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      CALLBACK,
      codeVerifier,
      insecure,
    );
    await assert.rejects(
      oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: 'expected' }),
      /nonce/,
    );
  });

  test('after the account page removes the application, the next refresh is invalid_grant, and the full flow recovers', async () => {
    const registered = await gatehouse.addClient({
      id: 'o4w-account',
      public: true,
      scope: ['openid', 'profile', 'email'],
    });
    const client: oauth.Client = { client_id: registered.id, id_token_signed_response_alg: 'RS256' };
    const browser = new UserAgent();
    const tokens = await signIn(client, browser);
    const account = await browser.get(`${gatehouse.issuer}/account`);
    const removed = await browser.post(`${gatehouse.issuer}/account/revoke`, {
      csrf_token: hidden(account.html, 'csrf_token'),
      client_id: clientIdOnAccountPage(account.html, 'o4w-account'),
    });
    assert.equal(removed.status, 303);
    const error = await oauth
      .processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token as string, insecure),
      )
      .then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof oauth.ResponseBodyError, String(error));
    assert.equal(error.error, 'invalid_grant');
    const again = await signIn(client, browser);
    assert.deepEqual(browser.pagesShown, ['consent']);
    assert.ok(oauth.getValidatedIdTokenClaims(again)?.sub);
  });
});
