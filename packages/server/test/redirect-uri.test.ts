import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRegisteredRedirectUri } from '../src/oauth/redirect-uris.js';

describe('redirect URI matching (RFC 6749 §3.1.2.3, RFC 9700 §4.1.3, RFC 8252 §7.3)', () => {
  const registered = [
    'https://app.example/callback',
    'http://127.0.0.1/cb',
    'http://[::1]:8080/cb?x=1',
    'http://localhost/cb',
  ];
  const cases: ReadonlyArray<readonly [string, boolean, string]> = [
    ['https://app.example/callback', true, 'an exact match'],
    ['https://app.example/callback/', false, 'another path is not a match'],
    ['https://app.example:8443/callback', false, 'a non-loopback URI on another port is not a match'],
    ['http://127.0.0.1:54321/cb', true, 'RFC 8252 §7.3: a loopback IP literal on any port'],
    ['http://127.0.0.1/cb', true, 'the loopback URI as registered, without a port'],
    ['http://[::1]:1/cb?x=1', true, 'the IPv6 loopback literal on any port, same query'],
    ['http://[::1]:1/cb', false, 'the IPv6 loopback without the registered query'],
    ['http://127.0.0.1:54321/other', false, 'a loopback URI with another path'],
    ['https://127.0.0.1:54321/cb', false, 'a loopback URI with another scheme'],
    ['http://127.0.0.1:54321/cb#frag', false, 'a fragment'],
    ['http://user@127.0.0.1:54321/cb', false, 'userinfo'],
    ['http://localhost:54321/cb', false, 'RFC 8252 §8.3: localhost gets no port exception'],
    ['http://127.0.0.2:54321/cb', false, 'another loopback address than the registered one'],
  ];
  for (const [requested, expected, why] of cases)
    it(`${requested} is ${expected ? '' : 'not '}accepted: ${why}`, () => {
      assert.equal(isRegisteredRedirectUri(registered, requested), expected);
    });
});
