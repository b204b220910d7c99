/**
 * The access-token check's wire rules, written once in the contract: the RFC 6750 §2.1 header, the
 * RFC 6750 §3 challenge with RFC 9728 §5.1 `resource_metadata`, the scope check, and the verifier
 * that the server and the resource-server kit both call.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  accessTokenVerifier,
  BearerChallenge,
  bearerChallenge,
  bearerTokenOf,
  hasRequiredScope,
  insufficientScopeDetail,
  InvalidAccessToken,
  type AccessTokenClaims,
  type RequestReader,
} from '../src/index.js';

const claims = (scope: string): AccessTokenClaims => ({
  iss: 'https://as.example',
  sub: 's',
  aud: 'https://as.example',
  client_id: 'c',
  scope,
  jti: 'j',
  iat: 0,
  exp: 1,
});

describe('RFC 6750 §2.1: the Authorization header', () => {
  it('takes the token of "Bearer <b64token>"', () => {
    assert.equal(bearerTokenOf('Bearer abc.DEF-_~+/09=='), 'abc.DEF-_~+/09==');
  });
  it('the scheme is case-insensitive (RFC 9110 §11.1)', () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) assert.equal(bearerTokenOf(`${scheme} t0k`), 't0k');
  });
  it('the scheme and the token are separated by one space, 1*SP allowing more', () => {
    assert.equal(bearerTokenOf('Bearer  t0k'), 't0k');
    assert.equal(bearerTokenOf('Bearert0k'), undefined);
    assert.equal(bearerTokenOf('Bearer\tt0k'), undefined);
    assert.equal(bearerTokenOf('Bearer '), undefined);
  });
  it('the token is a b64token: no other character, "=" only at its end, nothing after it', () => {
    for (const header of ['Bearer a b', 'Bearer a"b', 'Bearer a,b', 'Bearer a=b', 'Bearer ab ', 'Bearer =', 'Bearer é'])
      assert.equal(bearerTokenOf(header), undefined, header);
  });
  it('another scheme is not bearer credentials', () => {
    assert.equal(bearerTokenOf('Basic YWxpY2U6c2VjcmV0'), undefined);
    assert.equal(bearerTokenOf('DPoP t0k'), undefined);
  });
});

describe('RFC 6750 §3: the WWW-Authenticate challenge', () => {
  const at = { realm: 'gatehouse', resourceMetadata: 'https://as.example/.well-known/oauth-protected-resource/v2' };
  it('a request without credentials gets realm and resource_metadata (RFC 9728 §5.1), no error (§3.1)', () => {
    assert.equal(bearerChallenge(at), `Bearer realm="gatehouse", resource_metadata="${at.resourceMetadata}"`);
    assert.equal(bearerChallenge({ realm: 'api' }), 'Bearer realm="api"');
  });
  it('the error attributes follow, in the order error, error_description, scope', () => {
    assert.equal(
      bearerChallenge(at, { error: 'insufficient_scope', scope: 'a b' }),
      `Bearer realm="gatehouse", resource_metadata="${at.resourceMetadata}", error="insufficient_scope", scope="a b"`,
    );
    assert.equal(
      bearerChallenge({ realm: 'r' }, { error: 'invalid_token', errorDescription: 'gone' }),
      'Bearer realm="r", error="invalid_token", error_description="gone"',
    );
  });
  it('values are quoted-strings: a quote or a backslash is escaped (RFC 9110 §5.6.4)', () => {
    assert.equal(bearerChallenge({ realm: 'a"b\\c' }), 'Bearer realm="a\\"b\\\\c"');
  });
});

describe('RFC 6750 §3.1: the scope check', () => {
  it('one alternative needs every scope it lists', () => {
    assert.equal(hasRequiredScope(claims('a b'), [['a', 'b']]), true);
    assert.equal(hasRequiredScope(claims('a'), [['a', 'b']]), false);
  });
  it('one of several alternatives suffices', () => {
    assert.equal(hasRequiredScope(claims('admin'), [['admin:read'], ['admin']]), true);
    assert.equal(hasRequiredScope(claims('other'), [['admin:read'], ['admin']]), false);
  });
  it('scopes are compared whole, not as prefixes', () => {
    assert.equal(hasRequiredScope(claims('contacts:readx'), [['contacts:read']]), false);
  });
  it('no alternatives needs no scope', () => {
    assert.equal(hasRequiredScope(claims(''), []), true);
  });
  it('the insufficient-scope detail has one wording, naming every alternative', () => {
    assert.equal(insufficientScopeDetail([['contacts:write']]), "This operation needs the scope 'contacts:write'.");
    assert.equal(insufficientScopeDetail([['a'], ['b c']]), "This operation needs the scope 'a' or 'b c'.");
  });
});

interface Plain {
  readonly authorization?: string;
}
const PLAIN: RequestReader<Plain> = {
  method: () => 'GET',
  header: (request, name) => (name === 'authorization' ? request.authorization : undefined),
  absoluteUrl: () => 'https://rs.example/x',
};

describe('the access-token verifier', () => {
  const verify = (token: string) => {
    if (token === 'good' || token === 'narrow') return claims(token === 'good' ? 'a' : 'z');
    throw new InvalidAccessToken('not signed here');
  };
  const check = accessTokenVerifier({ challenge: { realm: 'r' }, request: PLAIN, verify });
  const refusal = (request: Plain): BearerChallenge => {
    try {
      assert.ok(!(check(request, [['a']]) instanceof Promise));
    } catch (error) {
      assert.ok(error instanceof BearerChallenge);
      return error;
    }
    assert.fail('not refused');
  };

  it('answers the claims at once when every step does (no promise)', () => {
    const answer = check({ authorization: 'Bearer good' }, [['a']]);
    assert.ok(!(answer instanceof Promise));
    assert.equal(answer.scope, 'a');
  });
  it('no Authorization header: 401 invalid_token with a bare challenge (RFC 6750 §3.1)', () => {
    const error = refusal({});
    assert.equal(error.status, 401);
    assert.equal(error.challenge, 'Bearer realm="r"');
  });
  it('a header that is not bearer credentials, or a token the signature step refuses: error="invalid_token"', () => {
    for (const authorization of ['Basic x', 'Bearer bad']) {
      const error = refusal({ authorization });
      assert.equal(error.code, 'invalid_token');
      assert.equal(error.challenge, 'Bearer realm="r", error="invalid_token"');
    }
    assert.equal(refusal({ authorization: 'Bearer bad' }).detail, 'not signed here');
  });
  it('a token without the scope: 403 insufficient_scope naming it (RFC 6750 §3.1)', () => {
    const error = refusal({ authorization: 'Bearer narrow' });
    assert.equal(error.status, 403);
    assert.equal(error.challenge, 'Bearer realm="r", error="insufficient_scope", scope="a"');
    assert.equal(error.detail, "This operation needs the scope 'a'.");
  });
  it('liveness is checked before the scope, and waits only when its read does', async () => {
    const dead = accessTokenVerifier({
      challenge: { realm: 'r' },
      request: PLAIN,
      verify,
      liveness: {
        read: () => Promise.resolve(false),
        judge: (live: boolean) => {
          if (!live) throw new InvalidAccessToken('revoked');
        },
      },
    });
    const answer = dead({ authorization: 'Bearer narrow' }, [['a']]);
    assert.ok(answer instanceof Promise);
    await assert.rejects(answer, (error) => error instanceof BearerChallenge && error.detail === 'revoked');
  });
  it('the claims liveness answers are the claims the caller gets, their scope checked (a legacy sub corrected by the store)', async () => {
    const corrected = accessTokenVerifier({
      challenge: { realm: 'r' },
      request: PLAIN,
      verify,
      liveness: {
        read: () => Promise.resolve('opaque-subject'),
        judge: (subject: string, verified: AccessTokenClaims) => ({ ...verified, sub: subject }),
      },
    });
    assert.equal((await corrected({ authorization: 'Bearer good' }, [['a']])).sub, 'opaque-subject');
    await assert.rejects(
      Promise.resolve().then(() => corrected({ authorization: 'Bearer narrow' }, [['a']])),
      (error) => error instanceof BearerChallenge && error.code === 'insufficient_scope',
    );
  });
  it('a known token is found without parsing the header; an unknown one is still parsed and verified', () => {
    const seen: string[] = [];
    const knowing = accessTokenVerifier({
      challenge: { realm: 'r' },
      request: PLAIN,
      known: (token) => (token === 'good' ? claims('a') : undefined),
      verify: (token) => (seen.push(token), verify(token)),
    });
    assert.equal((knowing({ authorization: 'Bearer good' }, [['a']]) as AccessTokenClaims).scope, 'a');
    assert.deepEqual(seen, []);
    assert.throws(() => knowing({ authorization: 'Bearer bad' }, [['a']]), BearerChallenge);
    assert.deepEqual(seen, ['bad']);
  });
  it('an error other than a refusal (an unreachable key set) is passed on as it is', () => {
    const down = accessTokenVerifier({
      challenge: { realm: 'r' },
      request: PLAIN,
      verify: () => {
        throw new RangeError('down');
      },
    });
    assert.throws(() => down({ authorization: 'Bearer good' }, [['a']]), RangeError);
  });
});
