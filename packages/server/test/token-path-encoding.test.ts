import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { OAuthError } from '@gatehouse/contract';
import { presentedClient } from '../src/oauth/clients/client-authentication.js';
import { signEs256Jwt, signRs256Jwt } from '../src/oauth/tokens/jwt.js';
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

  it('each token names its own alg, typ and kid, in that order, whatever was signed before', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const tokens = [
      signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'one' }, { n: 1 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid: 'two' }, { n: 2 }, ec.privateKey),
      signEs256Jwt({ alg: 'ES256', typ: 'JWT', kid: 'one' }, { n: 3 }, ec.privateKey),
      await signRs256Jwt({ alg: 'RS256', typ: 'JWT', kid: 'one' }, { n: 4 }, rsa.privateKey),
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

describe('RS256 ID token signatures are made off the event loop (OIDC Core §15.1: RS256 for every client by default)', () => {
  it('the loop runs other work while RSA signatures are made, and each signature verifies (RFC 7518 §3.3)', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const header = { alg: 'RS256', typ: 'JWT', kid: 'k' } as const;
    let signed = 0;
    const signing = Array.from({ length: 8 }, (_, n) =>
      signRs256Jwt(header, { n }, rsa.privateKey).then((jwt) => {
        signed += 1;
        return jwt;
      }),
    );
    // Signed on the loop, all eight would be settled before the next turn; on libuv's pool they take
    // at least two signatures' time (8 on 4 threads), far longer than reaching the next turn.
    const settledByNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(signed)));
    assert.ok(settledByNextTurn < signing.length, `all ${signed} signatures were made before the loop's next turn`);
    for (const jwt of await Promise.all(signing)) {
      const [h, p, s] = jwt.split('.') as [string, string, string];
      assert.equal(verify('sha256', Buffer.from(`${h}.${p}`), rsa.publicKey, Buffer.from(s, 'base64url')), true);
    }
  });
});
