import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkDpopProof, DPOP_SIGNING_ALGORITHMS, InvalidDpopProof, type CheckedDpopProof } from '../src/index.js';
import { calculateJwkThumbprint } from 'jose';
import { DpopKeys, dpopSignatureStep, joseDpopSignature, plainEs256, sha256Base64url } from '../src/node/index.js';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A P-256 key pair, its bare public JWK (RFC 7638 members) and a signer of any header and payload segments. */
function es256Key() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, jwk: { kty, crv, x, y } as Record<string, string> };
}

/** A compact JWS of these segments, signed ES256 (RFC 7518 §3.4) by `key`. */
function signed(header: string, payload: string, key: KeyObject): string {
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' });
  return `${header}.${payload}.${signature.toString('base64url')}`;
}

/** The same JSON, spaces after it, so that its base64url is 4n characters: one more is 4n+1 (RFC 4648 §5). */
function whole(segment: string): string {
  const text = Buffer.from(segment, 'base64url').toString();
  return Buffer.from(text.padEnd(Math.ceil(text.length / 3) * 3, ' ')).toString('base64url');
}

const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ htm: 'POST', htu: 'https://as.example/token', iat: now(), jti: crypto.randomUUID() });

/** Whether jose (the only judge of a refusal) accepts the proof. */
async function joseAccepts(proof: string): Promise<boolean> {
  try {
    await joseDpopSignature(proof, DPOP_SIGNING_ALGORITHMS);
    return true;
  } catch (error) {
    assert.ok(error instanceof InvalidDpopProof);
    return false;
  }
}

describe('DPoP proof signatures through node:crypto (RFC 9449 §4.3 steps 2-7)', () => {
  it("an SDK's ES256 proof verifies through node:crypto to jose's header, payload and RFC 7638 thumbprint", async () => {
    const { privateKey, jwk } = es256Key();
    const proof = signed(part({ alg: 'ES256', typ: 'dpop+jwt', jwk }), part(claims()), privateKey);
    const fast = plainEs256(proof, new DpopKeys(8));
    assert.ok(fast, 'the node:crypto path takes a plain ES256 proof');
    const jose = await joseDpopSignature(proof, DPOP_SIGNING_ALGORITHMS);
    assert.deepEqual(fast.payload, jose.payload);
    assert.deepEqual(fast.header, jose.header);
    assert.equal(fast.jkt, await calculateJwkThumbprint(jwk, 'sha256'));
    assert.equal(fast.jkt, jose.jkt);
  });

  it('the node:crypto path accepts no proof jose refuses: each is left to jose, which refuses it', async () => {
    const { privateKey, jwk } = es256Key();
    const header = (extra: object = {}, key: object = jwk) =>
      part({ alg: 'ES256', typ: 'dpop+jwt', jwk: key, ...extra });
    const y = Buffer.from(jwk.y!, 'base64url');
    y[5]! ^= 1;
    const offCurve = { ...jwk, y: y.toString('base64url') };
    const cases: Record<string, string> = {
      // §4.3 step 7: a private key in jwk.
      'a private key': signed(header({}, privateKey.export({ format: 'jwk' })), part(claims()), privateKey),
      'a point off the curve': signed(header({}, offCurve), part(claims()), privateKey),
      // §4.3 step 4.
      'typ JWT': signed(part({ alg: 'ES256', typ: 'JWT', jwk }), part(claims()), privateKey),
      // RFC 7515 §4.1.11: an extension jose does not know.
      'a crit header': signed(header({ crit: ['x'], x: 1 }), part(claims()), privateKey),
      // RFC 7519 §4.1.4: jose checks exp.
      'an exp in the past': signed(header(), part({ ...claims(), exp: now() - 10 }), privateKey),
      // RFC 4648 §5: a segment of 4n+1 characters is no base64url, though Buffer would drop the last.
      'a header of 4n+1 characters': signed(`${whole(header())}A`, part(claims()), privateKey),
      // RFC 7515 §5.2 step 4: the claims are UTF-8.
      'a payload that is not UTF-8': signed(
        header(),
        Buffer.concat([Buffer.from('{"htm":"POST'), Buffer.from([0xff]), Buffer.from('","iat":1}')]).toString(
          'base64url',
        ),
        privateKey,
      ),
      'a payload that is not an object': signed(header(), part([claims()]), privateKey),
    };
    const keys = new DpopKeys(8);
    const step = dpopSignatureStep(8);
    for (const [name, proof] of Object.entries(cases)) {
      assert.equal(plainEs256(proof, keys), undefined, `${name}: left to jose`);
      assert.equal(await joseAccepts(proof), false, `${name}: jose refuses it`);
      await assert.rejects(async () => step(proof, DPOP_SIGNING_ALGORITHMS), InvalidDpopProof, name);
    }
  });

  it("a plain proof signed by another key than its jwk's is refused by node:crypto as jose refuses it (§4.3 step 6)", async () => {
    const { jwk } = es256Key();
    const other = es256Key();
    const proof = signed(part({ alg: 'ES256', typ: 'dpop+jwt', jwk }), part(claims()), other.privateKey);
    assert.throws(() => plainEs256(proof, new DpopKeys(8)), InvalidDpopProof);
    assert.equal(await joseAccepts(proof), false);
    // Refused at once, by a throw: no promise on the node:crypto path.
    assert.throws(() => dpopSignatureStep(8)(proof, DPOP_SIGNING_ALGORITHMS), InvalidDpopProof);
  });

  it('a proof jose accepts but the node:crypto path does not take (application/ typ, jwk members, exp) is accepted through jose', async () => {
    const { privateKey, jwk } = es256Key();
    const cases: Record<string, string> = {
      'typ application/dpop+jwt': signed(
        part({ alg: 'ES256', typ: 'application/dpop+jwt', jwk }),
        part(claims()),
        privateKey,
      ),
      'a jwk with use and kid': signed(
        part({ alg: 'ES256', typ: 'dpop+jwt', jwk: { ...jwk, use: 'sig', kid: 'k' } }),
        part(claims()),
        privateKey,
      ),
      // A byte-order mark, which jose's decoder drops: the node:crypto path leaves it to jose.
      'a payload starting with a BOM': signed(
        part({ alg: 'ES256', typ: 'dpop+jwt', jwk }),
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(claims()))]).toString('base64url'),
        privateKey,
      ),
      'an exp in the future': signed(
        part({ alg: 'ES256', typ: 'dpop+jwt', jwk }),
        part({ ...claims(), exp: now() + 60 }),
        privateKey,
      ),
    };
    const step = dpopSignatureStep(8);
    for (const [name, proof] of Object.entries(cases)) {
      assert.equal(plainEs256(proof, new DpopKeys(8)), undefined, name);
      assert.equal((await step(proof, DPOP_SIGNING_ALGORITHMS)).jkt, await calculateJwkThumbprint(jwk, 'sha256'), name);
    }
  });

  it('without ES256 in the allow-list the node:crypto path is not taken', async () => {
    const { privateKey, jwk } = es256Key();
    const proof = signed(part({ alg: 'ES256', typ: 'dpop+jwt', jwk }), part(claims()), privateKey);
    await assert.rejects(async () => dpopSignatureStep(8)(proof, ['EdDSA']), InvalidDpopProof);
  });

  it('a header seen before is not decoded again, yet every proof carrying it is verified (RFC 9449 §4.3 step 6)', () => {
    const { privateKey, jwk } = es256Key();
    const other = es256Key();
    const keys = new DpopKeys(8);
    const header = part({ alg: 'ES256', typ: 'dpop+jwt', jwk });
    const first = plainEs256(signed(header, part(claims()), privateKey), keys);
    assert.ok(first);
    assert.equal(keys.ofHeader(header)?.key.jkt, first.jkt, 'the header is remembered once its proof verified');
    const second = plainEs256(signed(header, part(claims()), privateKey), keys);
    assert.equal(second?.jkt, first.jkt);
    assert.notDeepEqual(second?.payload, first.payload);
    // The same header, signed by another key: the remembered header's key refuses it.
    assert.throws(() => plainEs256(signed(header, part(claims()), other.privateKey), keys), InvalidDpopProof);
  });

  it('a header whose proof does not verify, or one longer than an SDK writes, is not remembered', () => {
    const { privateKey, jwk } = es256Key();
    const other = es256Key();
    const keys = new DpopKeys(8);
    const header = part({ alg: 'ES256', typ: 'dpop+jwt', jwk });
    assert.throws(() => plainEs256(signed(header, part(claims()), other.privateKey), keys), InvalidDpopProof);
    assert.equal(keys.ofHeader(header), undefined);
    const padded = Buffer.from(`${JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk })}${' '.repeat(300)}`).toString(
      'base64url',
    );
    assert.ok(plainEs256(signed(padded, part(claims()), privateKey), keys));
    assert.equal(keys.ofHeader(padded), undefined);
  });

  it('a key is imported once while in use; past the capacity the least recently used is dropped', () => {
    const keys = new DpopKeys(2);
    const [a, b, c] = [es256Key().jwk, es256Key().jwk, es256Key().jwk];
    const first = keys.of(a.x!, a.y!);
    assert.ok(first);
    assert.equal(keys.of(a.x!, a.y!), first);
    const bFirst = keys.of(b.x!, b.y!);
    keys.of(a.x!, a.y!); // a is now the most recently used: c pushes b out.
    keys.of(c.x!, c.y!);
    assert.equal(keys.of(a.x!, a.y!), first);
    const bAgain = keys.of(b.x!, b.y!);
    assert.ok(bAgain);
    assert.notEqual(bAgain, bFirst, 'b was dropped and imported again');
  });
});

describe('checkDpopProof at a resource (RFC 9449 §4.3, §7.1)', () => {
  const url = 'https://api.example/v2/contacts';
  const token = 'eyJ.access.token';
  const proofOf = (privateKey: KeyObject, jwk: Record<string, string>, extra: object = {}) =>
    signed(
      part({ alg: 'ES256', typ: 'dpop+jwt', jwk }),
      part({ htm: 'POST', htu: url, iat: now(), jti: crypto.randomUUID(), ath: sha256Base64url(token), ...extra }),
      privateKey,
    );

  it('a plain proof is checked synchronously: the checked proof, no promise', async () => {
    const { privateKey, jwk } = es256Key();
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    const checked = checkDpopProof(
      proofOf(privateKey, jwk),
      { method: 'POST', url, now: now(), accessToken: token, jkt },
      dpopSignatureStep(8),
      sha256Base64url,
    );
    assert.ok(!(checked instanceof Promise));
    assert.equal(checked.jkt, jkt);
  });

  it('each refusal of a plain proof is thrown at once: htm, htu, iat, ath, the bound key, the signature', async () => {
    const { privateKey, jwk } = es256Key();
    const other = es256Key();
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    const expected = { method: 'POST', url, now: now(), accessToken: token, jkt };
    const cases: Record<string, [string, typeof expected, RegExp]> = {
      htm: [proofOf(privateKey, jwk, { htm: 'GET' }), expected, /htm/],
      htu: [proofOf(privateKey, jwk, { htu: 'https://api.example/v2/other' }), expected, /htu/],
      'iat too old': [proofOf(privateKey, jwk, { iat: now() - 120 }), expected, /iat/],
      'no jti': [proofOf(privateKey, jwk, { jti: '' }), expected, /jti/],
      ath: [proofOf(privateKey, jwk, { ath: sha256Base64url('another token') }), expected, /ath/],
      'no ath': [proofOf(privateKey, jwk, { ath: undefined }), expected, /ath/],
      'another key than the bound one': [proofOf(other.privateKey, other.jwk), expected, /bound/],
      'a forged signature': [
        signed(part({ alg: 'ES256', typ: 'dpop+jwt', jwk }), part(claims()), other.privateKey),
        expected,
        /not a JWS/,
      ],
    };
    const step = dpopSignatureStep(8);
    for (const [name, [proof, expectations, message]] of Object.entries(cases))
      assert.throws(() => checkDpopProof(proof, expectations, step, sha256Base64url), message, name);
  });

  it('with a signature step or a token hash that waits, the same checks reject the promise', async () => {
    const { privateKey, jwk } = es256Key();
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    const expected = { method: 'POST', url, now: now(), accessToken: token, jkt };
    const later = async (text: string) => sha256Base64url(text);
    const checked = checkDpopProof(proofOf(privateKey, jwk), expected, joseDpopSignature, later);
    assert.ok(checked instanceof Promise);
    assert.equal((await checked).jkt, jkt);
    await assert.rejects(
      checkDpopProof(
        proofOf(privateKey, jwk, { ath: 'x' }),
        expected,
        dpopSignatureStep(8),
        later,
      ) as Promise<CheckedDpopProof>,
      /ath/,
    );
    await assert.rejects(
      checkDpopProof(
        proofOf(privateKey, jwk, { htm: 'GET' }),
        expected,
        joseDpopSignature,
        later,
      ) as Promise<CheckedDpopProof>,
      /htm/,
    );
  });
});
