import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRegisteredRedirectUri, redirectUriRefusal, redirectUriRefusalMessage } from '../src/index.js';

describe('the redirect URI rule shared by the server and the console', () => {
  it('what an operator can register (RFC 6749 §3.1.2, RFC 8252 §7.3, RFC 3986 §2)', () => {
    assert.equal(redirectUriRefusal('https://app.example/callback'), undefined);
    assert.equal(redirectUriRefusal('http://127.0.0.1:8080/cb'), undefined);
    assert.equal(redirectUriRefusal('com.example.app:/cb'), undefined);
    assert.equal(redirectUriRefusal('https://app.example/cb\t'), 'characters');
    assert.equal(redirectUriRefusal('https://app.example/é'), 'characters');
    assert.equal(redirectUriRefusal('/callback'), 'not-absolute');
    assert.equal(redirectUriRefusal('https://app.example/cb#top'), 'fragment');
    assert.equal(redirectUriRefusal('http://app.example/cb'), 'plain-http');
    assert.equal(
      redirectUriRefusalMessage('http://app.example/cb', 'plain-http'),
      "redirect URI 'http://app.example/cb' must use https, or http on loopback only (127.0.0.0/8, [::1] or localhost)",
    );
  });

  it('matching is exact, byte for byte, but for a native loopback port (RFC 6749 §3.1.2.3, RFC 8252 §7.3)', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1/cb'];
    assert.ok(isRegisteredRedirectUri(registered, 'https://app.example/cb', 'web'));
    assert.ok(!isRegisteredRedirectUri(registered, 'https://app.example/cb/', 'web'));
    assert.ok(!isRegisteredRedirectUri(registered, 'https://APP.example/cb', 'web'));
    assert.ok(isRegisteredRedirectUri(registered, 'http://127.0.0.1:5000/cb', 'native'));
    assert.ok(!isRegisteredRedirectUri(registered, 'http://127.0.0.1:5000/cb', 'web'));
  });
});
