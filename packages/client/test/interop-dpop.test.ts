/**
 * DPoP (RFC 9449) between Gatehouse and clients nobody here wrote: oauth4webapi's `DPoP()` and
 * openid-client v6's `getDPoPHandle`, against a listening server behind a proxy whose URL is the
 * issuer (so `htu` is the public URL, not the address the server listens on). Code flow with a
 * public client, DPoP-bound tokens (`token_type` DPoP, `cnf.jkt`), refresh of the bound token, calls
 * to /v2 and /userinfo with proofs; a stolen bound refresh token is refused with invalid_grant
 * without the key and with another key, identically on retry; server nonces (§8, §9) are followed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

const insecure = { [oauth.allowInsecureRequests]: true } as const; // the test server is plain http on loopback

async function keyPair(): Promise<CryptoKeyPair> {
  return await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

async function thumbprint(pair: CryptoKeyPair): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(pair.publicKey), 'sha256');
}

for (const nonces of [false, true]) {
  describe(`DPoP interop (RFC 9449), server nonces ${nonces ? 'required' : 'off'}`, () => {
    let gatehouse: Gatehouse;
    let as: oauth.AuthorizationServer;
    before(async () => {
      gatehouse = await startGatehouse({ dpopNonces: nonces });
      await gatehouse.addUser();
      const issuer = new URL(gatehouse.issuer);
      as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
      );
    });
    after(() => gatehouse.close());

    /** oauth4webapi leaves the use_dpop_nonce retry to the caller (its documented pattern): one retry. */
    async function withNonceRetry<T>(request: () => Promise<T>): Promise<T> {
      try {
        return await request();
      } catch (error) {
        if (oauth.isDPoPNonceError(error)) return request();
        throw error;
      }
    }

    async function o4wCodeFlow(c: oauth.Client, dpop: oauth.DPoPHandle): Promise<oauth.TokenEndpointResponse> {
      const codeVerifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint ?? assert.fail('no authorization_endpoint'));
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: c.client_id,
        redirect_uri: CALLBACK,
        scope: 'openid contacts:read',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }).toString();
      const callback = new URL(await new UserAgent().authorize(url.href));
      const params = oauth.validateAuthResponse(as, c, callback, state);
      return withNonceRetry(async () =>
        oauth.processAuthorizationCodeResponse(
          as,
          c,
          await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, CALLBACK, codeVerifier, {
            DPoP: dpop,
            ...insecure,
          }),
          { requireIdToken: true },
        ),
      );
    }

    test('the metadata announces dpop_signing_alg_values_supported (RFC 9449 §5.1) without none or HMAC', () => {
      const algs = as.dpop_signing_alg_values_supported ?? assert.fail('announced');
      assert.ok(algs.includes('ES256'));
      assert.ok(!algs.some((alg) => alg === 'none' || alg.startsWith('HS')));
    });

    test('oauth4webapi: code flow, bound refresh of a public client, /v2 and /userinfo with proofs (RFC 9449 §5, §7)', async () => {
      const registered = await gatehouse.addClient({
        id: `o4w-dpop-${nonces}`,
        public: true,
        scope: ['openid', 'contacts:read'],
      });
      const c: oauth.Client = { client_id: registered.id };
      const pair = await keyPair();
      const dpop = oauth.DPoP(c, pair);
      const first = await o4wCodeFlow(c, dpop);
      assert.equal(first.token_type, 'dpop'); // oauth4webapi lower-cases it
      assert.equal((decodeJwt(first.access_token).cnf as { jkt: string }).jkt, await thumbprint(pair));

      const refreshed = await withNonceRetry(async () =>
        oauth.processRefreshTokenResponse(
          as,
          c,
          await oauth.refreshTokenGrantRequest(as, c, oauth.None(), first.refresh_token ?? assert.fail('rt'), {
            DPoP: dpop,
            ...insecure,
          }),
        ),
      );
      assert.equal(refreshed.token_type, 'dpop');
      assert.ok(refreshed.refresh_token && refreshed.refresh_token !== first.refresh_token);

      const contacts = await withNonceRetry(async () => {
        const response = await oauth.protectedResourceRequest(
          refreshed.access_token,
          'GET',
          new URL(`${gatehouse.apiBase}/contacts?limit=5`),
          undefined,
          undefined,
          { DPoP: dpop, ...insecure },
        );
        // RFC 9449 §9: a resource's use_dpop_nonce is a 401 challenge; oauth4webapi notes the nonce.
        if (response.status === 401 && response.headers.get('dpop-nonce')) {
          const challenge = response.headers.get('www-authenticate') ?? '';
          assert.match(challenge, /^DPoP .*error="use_dpop_nonce"/);
          return oauth.protectedResourceRequest(
            refreshed.access_token,
            'GET',
            new URL(`${gatehouse.apiBase}/contacts?limit=5`),
            undefined,
            undefined,
            { DPoP: dpop, ...insecure },
          );
        }
        return response;
      });
      assert.equal(contacts.status, 200, await contacts.clone().text());

      const userinfo = await withNonceRetry(async () =>
        oauth.processUserInfoResponse(
          as,
          c,
          oauth.skipSubjectCheck,
          await oauth.userInfoRequest(as, c, refreshed.access_token, { DPoP: dpop, ...insecure }),
        ),
      );
      assert.ok(userinfo.sub);

      // RFC 9449 §7.2: the bound token sent as a bearer token is refused.
      const asBearer = await fetch(`${gatehouse.apiBase}/contacts`, {
        headers: { authorization: `Bearer ${refreshed.access_token}` },
      });
      assert.equal(asBearer.status, 401);
      assert.match(asBearer.headers.get('www-authenticate') ?? '', /^DPoP .*algs="[^"]*ES256/);
    });

    test('a stolen bound refresh token is invalid_grant without the key, with another key, and identically on retry (RFC 9449 §5)', async () => {
      const registered = await gatehouse.addClient({
        id: `o4w-stolen-${nonces}`,
        public: true,
        scope: ['openid', 'contacts:read'],
      });
      const c: oauth.Client = { client_id: registered.id };
      const dpop = oauth.DPoP(c, await keyPair());
      const tokens = await o4wCodeFlow(c, dpop);
      const stolen = tokens.refresh_token ?? assert.fail('rt');

      const refusals: unknown[] = [];
      for (let attempt = 0; attempt < 2; attempt++) {
        // Without any proof: a plain public-client refresh.
        const bare = await fetch(as.token_endpoint ?? '', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stolen, client_id: c.client_id }),
        });
        assert.equal(bare.status, 400);
        refusals.push(await bare.json());
        // With a proof of the thief's own key.
        const thief = oauth.DPoP(c, await keyPair());
        const error = await withNonceRetry(async () =>
          oauth.processRefreshTokenResponse(
            as,
            c,
            await oauth.refreshTokenGrantRequest(as, c, oauth.None(), stolen, { DPoP: thief, ...insecure }),
          ),
        ).then(
          () => assert.fail('refused'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof oauth.ResponseBodyError, String(error));
        assert.equal(error.status, 400);
        refusals.push({ error: error.error, error_description: error.error_description });
      }
      for (const refusal of refusals) {
        assert.equal((refusal as { error: string }).error, 'invalid_grant');
        assert.equal(
          (refusal as { error_description: string }).error_description,
          'refresh token is bound to a DPoP key and the request has no proof signed by it',
        );
      }
      // The holder of the key still refreshes: the thief's attempts consumed and revoked nothing.
      const own = await withNonceRetry(async () =>
        oauth.processRefreshTokenResponse(
          as,
          c,
          await oauth.refreshTokenGrantRequest(as, c, oauth.None(), stolen, { DPoP: dpop, ...insecure }),
        ),
      );
      assert.equal(own.token_type, 'dpop');
    });

    test('openid-client v6 getDPoPHandle: code flow, bound refresh, /userinfo and /v2 (RFC 9449)', async () => {
      const registered = await gatehouse.addClient({
        id: `oc-dpop-${nonces}`,
        public: true,
        scope: ['openid', 'contacts:read'],
      });
      const config = await client.discovery(new URL(gatehouse.issuer), registered.id, undefined, client.None(), {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const pair = await keyPair();
      const DPoP = client.getDPoPHandle(config, pair);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid contacts:read',
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        // RFC 9449 §10: the code is bound to the key too.
        dpop_jkt: await thumbprint(pair),
      });
      const callback = await new UserAgent().authorize(url.href);
      const first = await client.authorizationCodeGrant(
        config,
        new URL(callback),
        { pkceCodeVerifier: codeVerifier, expectedState: state },
        undefined,
        { DPoP },
      );
      assert.equal(first.token_type, 'dpop');
      const refreshed = await client.refreshTokenGrant(config, first.refresh_token ?? assert.fail('rt'), undefined, {
        DPoP,
      });
      assert.equal(refreshed.token_type, 'dpop');
      const claims = decodeJwt(refreshed.access_token);
      const userinfo = await client.fetchUserInfo(config, refreshed.access_token, String(claims.sub), { DPoP });
      assert.equal(userinfo.sub, claims.sub);
      let contacts = await client.fetchProtectedResource(
        config,
        refreshed.access_token,
        new URL(`${gatehouse.apiBase}/contacts`),
        'GET',
        undefined,
        undefined,
        { DPoP },
      );
      if (contacts.status === 401 && contacts.headers.get('dpop-nonce'))
        contacts = await client.fetchProtectedResource(
          config,
          refreshed.access_token,
          new URL(`${gatehouse.apiBase}/contacts`),
          'GET',
          undefined,
          undefined,
          { DPoP },
        );
      assert.equal(contacts.status, 200);

      // The stolen refresh token with another key: invalid_grant.
      const thief = client.getDPoPHandle(config, await keyPair());
      const error = await client
        .refreshTokenGrant(config, refreshed.refresh_token ?? assert.fail('rt'), undefined, { DPoP: thief })
        .then(
          () => assert.fail('refused'),
          (e: unknown) => e,
        );
      assert.ok(error instanceof client.ResponseBodyError, String(error));
      assert.equal(error.error, 'invalid_grant');
    });
  });
}
