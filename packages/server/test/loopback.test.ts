import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upstreamFetch, UpstreamRequestRefused } from '../src/federation/upstream-fetch.js';
import { classifyUpstreamError } from '../src/federation/upstream-failures.js';
import { jwksUriProblem } from '../src/oauth/keys/client-keys.js';
import { isHttpsOrLoopbackHttp, isLoopbackAddress, isLoopbackHost } from '../src/primitives/loopback.js';
import { safeFetch, SafeFetchError } from '../src/outbound/safe-fetch.js';

describe('the one loopback rule (primitives/loopback.ts)', () => {
  it('loopback is all of 127.0.0.0/8 and ::1 (RFC 1122 §3.2.1.3, RFC 4291 §2.5.3), mapped forms included, and the name localhost (RFC 6761 §6.3)', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '[::1]', '::ffff:127.0.0.1'])
      assert.ok(isLoopbackAddress(address), address);
    for (const address of ['128.0.0.1', '10.0.0.1', '0.0.0.0', '::', '::2', 'localhost', 'example.com', ''])
      assert.ok(!isLoopbackAddress(address), address);
    assert.ok(isLoopbackHost('localhost'));
    assert.ok(isLoopbackHost('LOCALHOST'));
    assert.ok(!isLoopbackHost('localhost.example.com'));
  });

  it('http is allowed to a loopback host only, whatever way the URL writes it; https anywhere; nothing else', () => {
    const allowed = [
      'https://idp.example',
      'http://127.0.0.2:4000',
      'http://127.1/',
      'http://2130706433/',
      'http://[::1]:3/',
    ];
    for (const url of allowed) assert.ok(isHttpsOrLoopbackHttp(new URL(url)), url);
    const refused = [
      'http://idp.example',
      'http://10.0.0.5',
      'http://[::ffff:a00:5]/',
      'ftp://127.0.0.1/',
      'file:///x',
    ];
    for (const url of refused) assert.ok(!isHttpsOrLoopbackHttp(new URL(url)), url);
  });

  it('a client’s jwks_uri follows it (RFC 7591 §2): http on 127.0.0.2 is accepted, http elsewhere refused', () => {
    assert.equal(jwksUriProblem('http://127.0.0.2:8080/jwks.json'), undefined);
    assert.equal(jwksUriProblem('http://keys.example/jwks.json'), 'jwks_uri must use https');
  });

  it('the SSRF-safe fetch allows plain http only to a loopback host, and only when its caller allows that', async () => {
    const options = { maxBytes: 1024, timeoutMs: 1000, allowLoopbackHttp: true };
    await assert.rejects(safeFetch('http://keys.example/jwks.json', options), (error: unknown) => {
      assert.ok(error instanceof SafeFetchError);
      assert.equal(error.reason, 'scheme_not_allowed');
      return true;
    });
    await assert.rejects(safeFetch('http://127.0.0.1:9/', { ...options, allowLoopbackHttp: false }), /scheme/);
  });

  it('the relying party sends no request breaking the rule: the refusal is the operator’s configuration (upstream_misconfigured), not an outage', async () => {
    const init = { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as const;
    const refused = await upstreamFetch('http://token.idp.example/token', init).then(
      () => assert.fail('sent'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof UpstreamRequestRefused);
    assert.equal(classifyUpstreamError(refused, 'callback')?.code, 'upstream_misconfigured');
    const unreachable = await upstreamFetch('http://127.0.0.1:9/.well-known/openid-configuration', init).then(
      () => assert.fail('answered'),
      (error: unknown) => error,
    );
    assert.equal(classifyUpstreamError(unreachable, 'discovery')?.code, 'upstream_unavailable');
  });
});
