import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { OAuthError } from '@gatehouse/contract';
import { presentedClient } from '../src/oauth/client-authentication.js';
import { signEs256Jwt, signRs256Jwt } from '../src/oauth/jwt.js';
import { FormParams } from '../src/http/form.js';

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const NO_BODY = FormParams.empty();

describe('client_secret_basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1)', () => {
  it('an id and secret with nothing to decode are taken as they are', () => {
    const presented = presentedClient(basic('bench', 'KOxz5dRPfFnJAuOKil-Cmpog7yx2_vyANm09ZTFdGiJA'), NO_BODY);
    assert.deepEqual(presented, {
      method: 'client_secret_basic',
      clientId: 'bench',
      secret: 'KOxz5dRPfFnJAuOKil-Cmpog7yx2_vyANm09ZTFdGiJA',
    });
  });

  it("'+' is a space and %XX a byte (UTF-8), in the id and in the secret", () => {
    const presented = presentedClient(basic('my+app%3Aone', 'p%C3%A4ss+word%2B%25'), NO_BODY);
    assert.deepEqual(presented, { method: 'client_secret_basic', clientId: 'my app:one', secret: 'päss word+%' });
    // '+' alone, without any '%' beside it.
    assert.deepEqual(presentedClient(basic('my+app', 'pass+word'), NO_BODY), {
      method: 'client_secret_basic',
      clientId: 'my app',
      secret: 'pass word',
    });
  });

  it('a bad percent sequence is client_authorization_malformed, not a 500', () => {
    for (const [id, secret] of [
      ['app', 'bad%zz'],
      ['app%', 'secret'],
      ['app', '%E0%A4%A'],
    ] as const) {
      assert.throws(
        () => presentedClient(basic(id, secret), NO_BODY),
        (error: unknown) => error instanceof OAuthError && error.reason === 'client_authorization_malformed',
        `${id}:${secret}`,
      );
    }
  });
});

describe('signed JWTs: the JOSE header (RFC 7515 §4.1)', () => {
  const decodedHeader = (jwt: string): unknown =>
    JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString('utf8'));

  it('each token names its own alg, typ and kid, in that order, whatever was signed before', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const tokens = [
      signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'one' }, { n: 1 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'two' }, { n: 2 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'JWT', kid: 'one' }, { n: 3 }, ec.privateKey),
      signRs256Jwt({ alg: 'RS256', typ: 'JWT', kid: 'one' }, { n: 4 }, rsa.privateKey),
      // typ and kid that would run together were they only joined with a space.
      signEs256Jwt({ alg: 'ES256', typ: 'JWT', kid: 'one x' }, { n: 5 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'JWT one', kid: 'x' }, { n: 5 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'one' }, { n: 6 }, ec.privateKey),
    ];
    assert.deepEqual(tokens.map(decodedHeader), [
      { alg: 'ES256', typ: 'at+jwt', kid: 'one' },
      { alg: 'ES256', typ: 'at+jwt', kid: 'two' },
      { alg: 'ES256', typ: 'JWT', kid: 'one' },
      { alg: 'RS256', typ: 'JWT', kid: 'one' },
      { alg: 'ES256', typ: 'JWT', kid: 'one x' },
      { alg: 'ES256', typ: 'JWT one', kid: 'x' },
      { alg: 'ES256', typ: 'at+jwt', kid: 'one' },
    ]);
    assert.equal(Object.keys(decodedHeader(tokens[0] as string) as object).join(), 'alg,typ,kid');
    // The signature covers the header as sent (RFC 7515 §5.2).
    const [header, payload, signature] = (tokens[6] as string).split('.') as [string, string, string];
    const valid = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: ec.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    assert.equal(valid, true);
  });
});
