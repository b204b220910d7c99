/**
 * What a federated sign-in answers when something goes wrong, by who caused it: what anyone can put
 * in a callback URL is the user's 4xx page; only the upstream failing Gatehouse is a 502 or 503; a
 * request Gatehouse itself refuses to send is the operator's configuration (upstream-failures.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { putProvider } from '../src/federation/providers.js';
import { authorizationQuery, hiddenField, PageBrowser, pkce, type PageAnswer } from './_authorize.js';
import { runCliCaptured } from './_cli.js';
import { startTestServer, type TestServer } from './_server.js';
import { startUpstreamStub, type StubUser, type UpstreamStub } from './_upstream-stub.js';

const ANN: StubUser = { sub: 'upstream-ann', claims: { email: 'ann@corp.example', email_verified: true } };

describe('federation: refused callbacks and failing upstreams, each with the page of who caused it', () => {
  let server: TestServer;
  let upstream: UpstreamStub;

  before(async () => {
    server = await startTestServer();
    upstream = await startUpstreamStub();
    await server.addClient({ id: 'rp', name: 'Relying Party', redirectUris: [CALLBACK_URI], scope: ['openid'] });
    await put('corp', upstream.issuer);
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });

  const CALLBACK_URI = 'http://127.0.0.1:8765/callback';

  async function put(id: string, issuer: string, clientSecret = upstream.clientSecret): Promise<void> {
    await putProvider(
      server.context.store,
      { id, issuer, client_id: upstream.clientId, client_secret: clientSecret },
      server.clock.now(),
      undefined,
    );
  }

  /** The sign-in page, then its federation form for `provider`: the answer (a redirect upstream, or a page). */
  async function start(browser: PageBrowser, provider: string): Promise<PageAnswer> {
    const page = await browser.authorize(authorizationQuery('rp', pkce().challenge, { scope: 'openid', nonce: 'n' }));
    assert.equal(page.status, 200);
    return browser.post('/federation/start', {
      csrf_token: hiddenField(page.html, 'csrf_token'),
      request: hiddenField(page.html, 'request'),
      provider,
    });
  }

  /** A browser that started a sign-in at `provider`: it and the upstream authorization URL. */
  async function started(provider = 'corp'): Promise<{ browser: PageBrowser; url: URL }> {
    const browser = new PageBrowser(server);
    const answer = await start(browser, provider);
    assert.equal(answer.status, 303, answer.html.slice(0, 400));
    return { browser, url: new URL(answer.location as string) };
  }

  function assertPage(answer: PageAnswer, status: number, code: string): void {
    assert.equal(answer.status, status, /Details<\/strong>[^<]*/.exec(answer.html)?.[0] ?? answer.html.slice(0, 300));
    assert.match(answer.html, new RegExp(code));
  }

  it('an authorization code from another browser’s sign-in, brought to this browser’s callback with its own state, is the 400 upstream_code_refused page, never a 5xx (RFC 6749 §5.2 invalid_grant, RFC 7636 §4.6)', async () => {
    const victim = await started();
    const attacker = await started();
    const attackersCode = new URLSearchParams(upstream.approve(attacker.url, ANN)).get('code') as string;
    const injected = new URLSearchParams(upstream.approve(victim.url, ANN));
    injected.set('code', attackersCode);
    const answer = await victim.browser.get(`/federation/callback?${injected}`);
    assertPage(answer, 400, 'upstream_code_refused');
    assert.doesNotMatch(answer.html, /registration/, 'no hint that the operator’s registration is wrong');
    const [audited] = await server.context.store.listAuditEvents({ event: 'federation_refused', limit: 1 });
    assert.match(audited?.reason ?? '', /invalid_grant/);
  });

  it('a callback carrying an error other than access_denied or login_required is the 400 upstream_sign_in_failed page: anyone can write that link (RFC 6749 §4.1.2.1)', async () => {
    for (const error of ['invalid_scope', 'unauthorized_client', 'server_error', 'temporarily_unavailable']) {
      const { browser, url } = await started();
      const answer = await browser.get(`/federation/callback?${upstream.deny(url, error)}`);
      assertPage(answer, 400, 'upstream_sign_in_failed');
      assert.match(answer.html, new RegExp(error));
    }
  });

  it('a callback without state, with a state twice, or without a code is a 4xx page (RFC 6749 §4.1.2, §10.12; RFC 9207 §2.4)', async () => {
    const { browser, url } = await started();
    const callback = new URLSearchParams(upstream.approve(url, ANN));
    const noState = new URLSearchParams(callback);
    noState.delete('state');
    assertPage(await browser.get(`/federation/callback?${noState}`), 400, 'federation_state_invalid');
    const twice = new URLSearchParams(callback);
    twice.append('state', 'another');
    assertPage(await browser.get(`/federation/callback?${twice}`), 400, 'upstream_token_invalid');
    const again = await started();
    const noCode = new URLSearchParams(upstream.approve(again.url, ANN));
    noCode.delete('code');
    assertPage(await again.browser.get(`/federation/callback?${noCode}`), 400, 'upstream_token_invalid');
  });

  it('the token endpoint failing Gatehouse is the upstream’s failure: 5xx or temporarily_unavailable is 503 upstream_unavailable, invalid_client is 502 upstream_error', async () => {
    const cases = [
      [{ status: 500, body: { error: 'server_error' } }, 503, 'upstream_unavailable'],
      [{ status: 400, body: { error: 'temporarily_unavailable' } }, 503, 'upstream_unavailable'],
      [{ status: 401, body: { error: 'invalid_client' } }, 502, 'upstream_error'],
    ] as const;
    try {
      for (const [tokenAnswer, status, code] of cases) {
        upstream.tokenAnswer = tokenAnswer;
        const { browser, url } = await started();
        const answer = await browser.get(`/federation/callback?${upstream.approve(url, ANN)}`);
        assertPage(answer, status, code);
        if (status === 503) assert.ok(answer.headers.get('retry-after'), 'Retry-After on a 503');
      }
    } finally {
      upstream.tokenAnswer = undefined;
    }
  });

  it('a discovery document naming another issuer is the 502 upstream_error page, not a refused answer of the user’s (RFC 8414 §3.3)', async () => {
    upstream.discoveredIssuer = 'https://elsewhere.example';
    try {
      assertPage(await start(new PageBrowser(server), 'corp'), 502, 'upstream_error');
    } finally {
      upstream.discoveredIssuer = undefined;
    }
  });

  it('with the upstream down after a sign-in has cached its discovery, a new sign-in is Gatehouse’s 503 upstream_unavailable page instead of a redirect to it', async () => {
    const flaky = await startUpstreamStub();
    await put('flaky', flaky.issuer, flaky.clientSecret);
    await started('flaky');
    await flaky.close();
    const answer = await start(new PageBrowser(server), 'flaky');
    assertPage(answer, 503, 'upstream_unavailable');
    assert.match(answer.html, /Try again/);
  });
});

describe('federation: an entry is checked at configuration by the rules its sign-in applies (one loopback rule, a key that signs)', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
    await server.addClient({
      id: 'rp',
      name: 'RP',
      redirectUris: ['http://127.0.0.1:8765/callback'],
      scope: ['openid'],
    });
  });
  after(async () => server.close());

  async function startAt(provider: string): Promise<PageAnswer> {
    const browser = new PageBrowser(server);
    const page = await browser.authorize(authorizationQuery('rp', pkce().challenge, { scope: 'openid', nonce: 'n' }));
    return browser.post('/federation/start', {
      csrf_token: hiddenField(page.html, 'csrf_token'),
      request: hiddenField(page.html, 'request'),
      provider,
    });
  }

  it('an upstream on http://127.0.0.2 (loopback: all of 127.0.0.0/8) is accepted at configuration and signs in', async () => {
    const upstream = await startUpstreamStub(undefined, undefined, { host: '127.0.0.2' });
    try {
      await putProvider(
        server.context.store,
        {
          id: 'second-loopback',
          issuer: upstream.issuer,
          client_id: 'gatehouse',
          client_secret: upstream.clientSecret,
        },
        server.clock.now(),
        undefined,
      );
      const answer = await startAt('second-loopback');
      assert.equal(answer.status, 303, answer.html.slice(0, 400));
      assert.equal(new URL(answer.location as string).origin, upstream.issuer);
    } finally {
      await upstream.close();
    }
  });

  it('an http issuer off loopback is refused at configuration, saying the rule', async () => {
    for (const issuer of ['http://idp.example', 'http://10.0.0.5:8080', 'http://128.0.0.1']) {
      await assert.rejects(
        putProvider(
          server.context.store,
          { id: 'plain', issuer, client_id: 'c', client_secret: 's' },
          server.clock.now(),
          undefined,
        ),
        /issuer: .* must be https, or http on loopback only/,
      );
    }
    assert.equal(await server.context.store.findUpstreamProvider('plain'), undefined);
  });

  it('`gatehouse upstreams apply` refuses a file with an http issuer off loopback the same way, and stores nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-upstreams-'));
    try {
      const file = join(dir, 'upstreams.json');
      const entry = { id: 'filed', issuer: 'http://idp.example', client_id: 'c', client_secret: 's' };
      writeFileSync(file, JSON.stringify({ upstreams: [entry] }));
      const run = await runCliCaptured(['upstreams', 'apply', file], { DATABASE_URL: server.databaseUrl });
      assert.notEqual(run.code, 0);
      assert.match(run.err, /issuer: 'http:\/\/idp\.example\/' must be https, or http on loopback only/);
      assert.equal(await server.context.store.findUpstreamProvider('filed'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a private_jwk Gatehouse cannot sign with (an EC key without its public point) is refused at configuration, not at the first sign-in (RFC 7523 §2.2)', async () => {
    const input = {
      id: 'keyless',
      issuer: 'https://idp.example',
      client_id: 'c',
      client_auth: 'private_key_jwt' as const,
      private_jwk: { kty: 'EC', crv: 'P-256', d: 'AAAA', kid: 'k', alg: 'ES256' },
    };
    await assert.rejects(
      putProvider(server.context.store, input, server.clock.now(), undefined),
      /private_jwk: Gatehouse cannot sign with it/,
    );
    assert.equal(await server.context.store.findUpstreamProvider('keyless'), undefined);
  });

  it('a stored provider breaking the rule (written before it) is the upstream_misconfigured page naming the rule, never “not answering”', async () => {
    const now = server.clock.now();
    await server.context.store.putUpstreamProvider({
      id: 'legacy',
      issuer: 'http://idp.example',
      clientId: 'c',
      clientAuth: 'client_secret_basic',
      credential: JSON.stringify({ kty: 'oct', k: 's' }),
      settings: JSON.stringify({
        scopes: ['openid'],
        displayName: 'Legacy',
        domains: [],
        trustEmailVerifiedDomains: [],
        provision: true,
        claims: {},
        endSession: false,
      }),
      createdAt: now,
      updatedAt: now,
    });
    const answer = await startAt('legacy');
    assert.equal(answer.status, 500);
    assert.match(answer.html, /upstream_misconfigured/);
    assert.match(answer.html, /http on loopback only/);
    assert.doesNotMatch(answer.html, /not answering/);
  });
});
