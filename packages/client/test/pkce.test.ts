import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  OAuthResponseError,
  buildAuthorizationUrl,
  codeChallengeS256,
  generateCodeVerifier,
  generateState,
  metadataUrlOf,
  openIdConfigurationUrlOf,
  readAuthorizationCallback,
} from '@gatehouse/client';

describe('PKCE, state and the authorization URL', () => {
  test('S256 of the RFC 7636 Appendix B verifier is its published challenge', async () => {
    assert.equal(
      await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('verifiers are 43 unreserved characters (RFC 7636 §4.1), states unguessable, all distinct', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const verifier = generateCodeVerifier();
      assert.match(verifier, /^[A-Za-z0-9\-._~]{43}$/);
      seen.add(verifier).add(generateState());
    }
    assert.equal(seen.size, 400);
  });

  test("the authorization URL carries every parameter once and keeps the endpoint's own query", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string({ minLength: 1 }), async (scope, clientId) => {
        const url = new URL(
          buildAuthorizationUrl({
            authorizationEndpoint: 'https://as.example/authorize?tenant=a',
            clientId,
            redirectUri: 'http://127.0.0.1:8765/callback',
            scope,
            state: 's',
            codeChallenge: 'c',
          }),
        );
        assert.equal(url.searchParams.get('tenant'), 'a');
        assert.equal(url.searchParams.get('client_id'), clientId);
        assert.equal(url.searchParams.get('scope'), scope === '' ? null : scope);
        assert.equal(url.searchParams.get('response_type'), 'code');
        assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
        assert.equal(url.searchParams.getAll('state').length, 1);
      }),
    );
  });

  test('an error sent back to the redirect URI is an OAuthResponseError without a status (RFC 6749 §4.1.2.1)', () => {
    const expected = { issuer: 'https://as.example', issRequired: true, isPendingState: (s: string) => s === 'ok' };
    const error = (() => {
      try {
        return readAuthorizationCallback(
          'http://127.0.0.1/callback?error=access_denied&error_description=the+user+denied&state=ok&iss=https%3A%2F%2Fas.example',
          expected,
        );
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof OAuthResponseError);
    assert.equal(error.error, 'access_denied');
    assert.equal(error.status, undefined);
    assert.throws(() => readAuthorizationCallback('http://127.0.0.1/callback?code=x&state=ok', expected), {
      reason: 'issuer_mismatch',
    });
    assert.throws(
      () => readAuthorizationCallback('http://127.0.0.1/callback?state=ok&iss=https%3A%2F%2Fas.example', expected),
      { reason: 'missing_code' },
    );
    assert.deepEqual(
      readAuthorizationCallback('http://127.0.0.1/callback?code=x&state=ok&iss=https%3A%2F%2Fas.example', expected),
      { state: 'ok', code: 'x' },
    );
  });

  test('metadata URLs: RFC 8414 inserts the well-known segment, OpenID Connect appends it', () => {
    assert.equal(metadataUrlOf('https://as.example'), 'https://as.example/.well-known/oauth-authorization-server');
    assert.equal(
      metadataUrlOf('https://as.example/tenant/'),
      'https://as.example/.well-known/oauth-authorization-server/tenant',
    );
    assert.equal(
      openIdConfigurationUrlOf('https://as.example/tenant'),
      'https://as.example/tenant/.well-known/openid-configuration',
    );
  });
});
