/**
 * openid-client v6 pushes its authorization request with a DPoP proof in the `DPoP` header when given
 * a DPoP handle (`buildAuthorizationUrlWithPAR(config, parameters, { DPoP })`), and sends no
 * `dpop_jkt`: RFC 9449 §10.1 has the server check that proof and bind the code to its key. A code
 * pushed with key 1's proof is redeemed with key 1's proof only, with server nonces off and required.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import * as client from 'openid-client';
import { UserAgent } from './_browser.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';

async function keyPair(): Promise<CryptoKeyPair> {
  return await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

for (const nonces of [false, true]) {
  describe(`openid-client v6: PAR with a DPoP proof (RFC 9449 §10.1), server nonces ${nonces ? 'required' : 'off'}`, () => {
    let gatehouse: Gatehouse;
    before(async () => {
      gatehouse = await startGatehouse({ dpopNonces: nonces });
      await gatehouse.addUser();
    });
    after(() => gatehouse.close());

    test("a code pushed with key 1's proof is refused with key 2's proof and redeemed with key 1's (RFC 9449 §10.1)", async () => {
      const registered = await gatehouse.addClient({
        id: `oc-par-dpop-${nonces}`,
        public: true,
        scope: ['openid', 'contacts:read'],
        requirePushedAuthorizationRequests: true,
      });
      const config = await client.discovery(new URL(gatehouse.issuer), registered.id, undefined, client.None(), {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      });
      const key1 = await keyPair();
      const DPoP = client.getDPoPHandle(config, key1);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = await client.buildAuthorizationUrlWithPAR(
        config,
        {
          redirect_uri: CALLBACK,
          scope: 'openid contacts:read',
          state,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        },
        { DPoP },
      );
      const callback = new URL(await new UserAgent().authorize(url.href));
      const checks = { pkceCodeVerifier: codeVerifier, expectedState: state };

      const thief = client.getDPoPHandle(config, await keyPair());
      const refused = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP: thief }).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(refused instanceof client.ResponseBodyError, String(refused));
      assert.equal(refused.error, 'invalid_grant');
      assert.equal(
        refused.error_description,
        'authorization code is bound to a DPoP key (dpop_jkt) and the request has no proof signed by it',
      );

      const tokens = await client.authorizationCodeGrant(config, callback, checks, undefined, { DPoP });
      assert.equal(tokens.token_type, 'dpop');
      const jkt = await calculateJwkThumbprint(await exportJWK(key1.publicKey), 'sha256');
      assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
    });
  });
}
