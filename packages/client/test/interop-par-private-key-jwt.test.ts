/**
 * Gatehouse as the authorization server of openid-client v6 and oauth4webapi (panva), code nobody
 * here wrote, with pushed authorization requests (RFC 9126), private_key_jwt client authentication
 * (RFC 7523 §2.2) and a signed request object (RFC 9101): the code flow through the real pages.
 */
import assert from 'node:assert/strict';
import { randomUUID, webcrypto } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test server is plain http on loopback

/** A client's key pair (WebCrypto, as a browser or Node app would make it) and its public JWK Set. */
async function keyPair(): Promise<{ privateKey: oauth.PrivateKey; jwks: { keys: JsonWebKey[] } }> {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const kid = randomUUID();
  const jwk = { ...(await webcrypto.subtle.exportKey('jwk', pair.publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { privateKey: { key: pair.privateKey, kid }, jwks: { keys: [jwk] } };
}

describe('interoperability: PAR, private_key_jwt and request objects with openid-client and oauth4webapi', () => {
  let gatehouse: Gatehouse;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
  });
  after(() => gatehouse.close());

  test('openid-client: buildAuthorizationUrlWithPAR and PrivateKeyJwt run the code flow, refresh and introspect', async () => {
    const { privateKey, jwks } = await keyPair();
    const registered = await gatehouse.addClient({
      id: 'oc-par-pkjwt',
      jwks,
      requirePushedAuthorizationRequests: true,
    });
    assert.equal(registered.secret, null, 'a client of private_key_jwt has no secret');
    const config = await client.discovery(
      new URL(gatehouse.issuer),
      registered.id,
      undefined,
      client.PrivateKeyJwt(privateKey),
      { algorithm: 'oauth2', execute: [client.allowInsecureRequests] },
    );
    const metadata = config.serverMetadata();
    assert.equal(metadata.pushed_authorization_request_endpoint, `${gatehouse.issuer}/par`);
    assert.ok(metadata.token_endpoint_auth_methods_supported?.includes('private_key_jwt'));

    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: CALLBACK,
      scope: 'contacts:read',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    const callback = await new UserAgent().authorize(url.href);
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, 'contacts:read');
    const rotated = await client.refreshTokenGrant(config, tokens.refresh_token ?? assert.fail('a refresh token'));
    assert.ok(rotated.access_token);
    const introspection = await client.tokenIntrospection(config, rotated.refresh_token ?? assert.fail('rotated'));
    assert.equal(introspection.active, true);

    // The same request_uri a second time: used once (RFC 9126 §4), the page says so.
    const again = await fetch(url.href, { redirect: 'manual' });
    assert.equal(again.status, 400);
    assert.match(await again.text(), /problems\/invalid-request-uri/);
  });

  test('oauth4webapi: pushedAuthorizationRequest and PrivateKeyJwt, then a signed request object pushed the same way', async () => {
    const { privateKey, jwks } = await keyPair();
    const registered = await gatehouse.addClient({ id: 'o4w-par-pkjwt', jwks });
    const issuer = new URL(gatehouse.issuer);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const oauthClient: oauth.Client = { client_id: registered.id };
    const clientAuth = oauth.PrivateKeyJwt(privateKey);

    for (const signed of [false, true]) {
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const parameters: Record<string, string> = {
        response_type: 'code',
        client_id: registered.id,
        redirect_uri: CALLBACK,
        scope: 'contacts:read contacts:write',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      const pushedParameters = signed
        ? { request: await oauth.issueRequestObject(as, oauthClient, parameters, privateKey) }
        : parameters;
      const pushed = await oauth.processPushedAuthorizationResponse(
        as,
        oauthClient,
        await oauth.pushedAuthorizationRequest(as, oauthClient, clientAuth, pushedParameters, insecure),
      );
      assert.ok(pushed.expires_in > 0 && pushed.expires_in < 600);
      const url = new URL(as.authorization_endpoint ?? assert.fail('no authorization_endpoint'));
      url.search = new URLSearchParams({ client_id: registered.id, request_uri: pushed.request_uri }).toString();
      const callback = new URL(await new UserAgent().authorize(url.href));
      const params = oauth.validateAuthResponse(as, oauthClient, callback, state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        oauthClient,
        await oauth.authorizationCodeGrantRequest(
          as,
          oauthClient,
          clientAuth,
          params,
          CALLBACK,
          codeVerifier,
          insecure,
        ),
      );
      assert.equal(tokens.scope, 'contacts:read contacts:write', signed ? 'signed' : 'plain');
    }
  });

  test('oauth4webapi: an assertion signed by a key the client did not register is invalid_client at /par', async () => {
    const { jwks } = await keyPair();
    const { privateKey: stranger } = await keyPair();
    const registered = await gatehouse.addClient({ id: 'o4w-stranger', jwks });
    const issuer = new URL(gatehouse.issuer);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
    const oauthClient: oauth.Client = { client_id: registered.id };
    const response = await oauth.pushedAuthorizationRequest(
      as,
      oauthClient,
      oauth.PrivateKeyJwt(stranger),
      { response_type: 'code', redirect_uri: CALLBACK, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' },
      insecure,
    );
    await assert.rejects(oauth.processPushedAuthorizationResponse(as, oauthClient, response), {
      error: 'invalid_client',
      status: 401,
    });
  });
});
