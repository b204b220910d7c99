/**
 * RFC 6749 §2.3.1 client_secret_basic, written once in the contract: what the client SDK and the kit
 * send is what the server reads, for every id and secret; and no package keeps a parser or writer of
 * an Authorization scheme (Basic, Bearer, DPoP) of its own.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { basicAuthorization, basicChallenge, basicCredentialsOf, isBasicAuthorization } from '../src/index.js';

const basic = (text: string): string => `Basic ${Buffer.from(text).toString('base64')}`;

describe('client_secret_basic (RFC 6749 §2.3.1)', () => {
  it('what basicAuthorization writes, basicCredentialsOf reads back, for any id and secret', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, unit: 'grapheme' }),
        fc.string({ unit: 'grapheme' }),
        (clientId, secret) => {
          assert.deepEqual(basicCredentialsOf(basicAuthorization(clientId, secret)), { clientId, secret });
        },
      ),
    );
  });

  it('id and secret are form-urlencoded before base64: a ":" in the id survives, "+" is a space (Appendix B)', () => {
    const header = basicAuthorization('urn:app:one', 'a b+c%');
    assert.equal(atob(header.slice('Basic '.length)), 'urn%3Aapp%3Aone:a+b%2Bc%25');
    assert.deepEqual(basicCredentialsOf(basic('my+app:x%3Ap%C3%A4ss')), { clientId: 'my app', secret: 'x:päss' });
  });

  it('credentials sent as raw UTF-8, not form-encoded, are read as such', () => {
    assert.deepEqual(basicCredentialsOf(basic('app:pässword')), { clientId: 'app', secret: 'pässword' });
  });

  it('the scheme in any case, one space or more (RFC 9110 §11.1, RFC 7617 §2)', () => {
    for (const scheme of ['Basic ', 'basic ', 'BASIC   '])
      assert.deepEqual(basicCredentialsOf(`${scheme}${btoa('app:secret')}`), { clientId: 'app', secret: 'secret' });
  });

  it('what is not well-formed Basic credentials is undefined, never an exception', () => {
    for (const header of [
      'Basic',
      'Basic ===',
      'Basic A',
      'Basic %%%',
      basic(':secret'),
      basic('no-colon'),
      basic('app:bad%zz'),
      basic('app%:secret'),
      'Bearer abc',
      `Basicx ${btoa('app:secret')}`,
    ])
      assert.equal(basicCredentialsOf(header), undefined, header);
  });

  it('a header naming the Basic scheme is an attempt at Basic authentication, with or without credentials', () => {
    for (const header of ['Basic', 'basic abc', `Basic ${btoa('a:b')}`])
      assert.equal(isBasicAuthorization(header), true);
    for (const header of [undefined, '', 'Bearer abc', 'Basicx abc', 'DPoP abc'])
      assert.equal(isBasicAuthorization(header), false);
  });

  it('the challenge names the realm and the UTF-8 charset (RFC 7617 §2.1)', () => {
    assert.equal(basicChallenge('gatehouse'), 'Basic realm="gatehouse", charset="UTF-8"');
  });
});

const PACKAGES = fileURLToPath(new URL('../../', import.meta.url));
/** Where the wire rules of the Authorization header live: the contract's own folders for them. */
const OWNERS = [join('contract', 'src', 'access-token'), join('contract', 'src', 'client-authentication')];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('one definition per wire rule of the Authorization header', () => {
  it('no package source outside the contract parses or writes the Basic, Bearer or DPoP scheme itself', () => {
    const rules = [
      // A regular expression anchored on a scheme: a parser of the header.
      /\/\^\(?(?:\?:)?(?:basic|bearer|dpop)\b/i,
      // Basic credentials put together by hand.
      /['"`]Basic ['"`]?\s*(?:\+|\$\{)/,
    ];
    const offenders = readdirSync(PACKAGES)
      .flatMap((pkg) => {
        const src = join(PACKAGES, pkg, 'src');
        try {
          return sources(src);
        } catch {
          return [];
        }
      })
      .filter((file) => !OWNERS.some((owner) => file.includes(owner)))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, where: `${file.slice(PACKAGES.length)}:${index + 1}` }))
          .filter(({ line }) => rules.some((rule) => rule.test(line)))
          .map(({ where, line }) => `${where}: ${line.trim()}`),
      );
    assert.deepEqual(offenders, []);
  });
});
