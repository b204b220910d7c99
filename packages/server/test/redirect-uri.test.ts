import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isRegisteredPostLogoutRedirectUri, isRegisteredRedirectUri } from '../src/oauth/clients/redirect-uris.js';
import { authorizationQuery, hiddenField, PageBrowser, pkce, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

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
      assert.equal(isRegisteredRedirectUri(registered, requested, 'native'), expected);
    });

  /** Strings the WHATWG URL parser would make equal to a registered URI: compared exactly, they are not. */
  const hostile: ReadonlyArray<readonly [string, string]> = [
    ['http://127.0.0.1:3299/cb\t', 'a trailing tab'],
    ['http://127.0.0.1:3299/c\tb', 'a tab inside the path'],
    ['http://127.0.0.1:3299/cb\u0000', 'a trailing NUL'],
    ['http://127.0.0.1:3299/cb\r\n', 'a trailing CR LF'],
    ['http://127.0.0.1:3299/c\nb', 'a newline inside the path'],
    [' http://127.0.0.1:3299/cb', 'a leading space'],
    ['http://127.0.0.1:3299/cb ', 'a trailing space'],
    ['\u0001http://127.0.0.1:3299/cb', 'a leading C0 control'],
    ['http://127.0.0.1:3299/cb/', 'a trailing slash'],
    ['http://127.0.0.1:3299/CB', 'the path in another case'],
    ['HTTP://127.0.0.1:3299/cb', 'the scheme in another case'],
    ['http://127.0.0.1@evil/cb', 'userinfo naming the loopback address, host evil'],
    ['http://127.0.0.1:3299@evil/cb', 'userinfo with the port, host evil'],
    ['http://127.0.0.1:99999/cb', 'a port out of range'],
    ['http://127.0.0.1:/cb', 'an empty port'],
    ['http://127.0.0.1:3299\\cb', 'a backslash for the slash'],
    ['http://0x7f.0.0.1:3299/cb', 'the loopback address spelled otherwise'],
  ];
  for (const [requested, why] of hostile)
    it(`RFC 6749 §3.1.2.3, RFC 8252 §7.3: ${JSON.stringify(requested)} is not a registered redirect URI: ${why}`, () => {
      assert.equal(isRegisteredRedirectUri(['http://127.0.0.1:3299/cb'], requested, 'native'), false);
    });

  it('a registered URI holding a control character is never matched, not even by itself (no raw control in a Location)', () => {
    for (const uri of ['http://127.0.0.1:3299/cb\u0000', 'https://app.example/cb\t', 'https://app.example/é'])
      for (const kind of ['native', 'web'] as const) assert.equal(isRegisteredRedirectUri([uri], uri, kind), false);
  });

  it('RFC 8252 §7.3: a confidential (web) client gets no port exception; its loopback URIs match exactly', () => {
    assert.equal(isRegisteredRedirectUri(['http://127.0.0.1:3299/cb'], 'http://127.0.0.1:4000/cb', 'web'), false);
    assert.equal(isRegisteredRedirectUri(['http://127.0.0.1/cb'], 'http://127.0.0.1:4000/cb', 'web'), false);
    assert.equal(isRegisteredRedirectUri(['http://127.0.0.1:3299/cb'], 'http://127.0.0.1:3299/cb', 'web'), true);
    assert.equal(isRegisteredRedirectUri(['http://127.0.0.1:3299/cb'], 'http://127.0.0.1:4000/cb', 'native'), true);
  });

  it('RP-Initiated Logout §3: a post-logout redirect URI is compared exactly and never holds a control', () => {
    const out = 'https://app.example/signed-out';
    assert.equal(isRegisteredPostLogoutRedirectUri([out], out), true);
    assert.equal(isRegisteredPostLogoutRedirectUri([out], `${out}\t`), false);
    assert.equal(isRegisteredPostLogoutRedirectUri([`${out}\u0000`], `${out}\u0000`), false);
  });
});

for (const dialect of DIALECTS)
  describe(`/authorize and /end-session match redirect URIs exactly (RFC 6749 §3.1.2.3, RFC 8252 §7.3) [${dialect}]`, () => {
    const NATIVE = 'http://127.0.0.1:3299/cb';
    const LOCALHOST = 'http://localhost:3299/cb';
    const WEB = 'https://web.example/Callback';
    const NUL = 'http://127.0.0.1:3299/nul\u0000';
    const SIGNED_OUT = 'https://web.example/signed-out';
    let server: TestServer;
    const { challenge } = pkce();

    before(async () => {
      server = await startTestServer({ dialect });
      await server.addClient({
        id: 'native',
        public: true,
        scope: ['contacts:read'],
        redirectUris: [NATIVE, LOCALHOST],
      });
      await server.addClient({ id: 'web', redirectUris: [NATIVE, WEB], postLogoutRedirectUris: [SIGNED_OUT] });
      // Registration now refuses a URI with a NUL (RFC 3986 §2); a client stored before that may hold one.
      const { store } = server.context;
      const native = await store.findClient('native');
      const web = await store.findClient('web');
      assert.ok(native && web);
      await store.replaceClient({ ...native, redirectUris: [NATIVE, LOCALHOST, NUL] });
      await store.replaceClient({ ...web, postLogoutRedirectUris: [SIGNED_OUT, `${SIGNED_OUT}\u0000`] });
    });
    after(() => server.close());

    /** A request refused at the redirect URI once it is trusted (response_type=token): a redirect iff it matched. */
    const authorize = (clientId: string, redirectUri: string): Promise<PageAnswer> =>
      new PageBrowser(server).authorize(
        authorizationQuery(clientId, challenge, { redirect_uri: redirectUri, response_type: 'token' }),
      );

    function assertNotRedirected(page: PageAnswer, uri: string): void {
      assert.equal(page.status, 400, `${JSON.stringify(uri)}: ${page.html.slice(0, 200)}`);
      assert.equal(page.location, undefined, `${JSON.stringify(uri)} is not redirected to`);
      assert.match(page.html, /invalid_authorization_request/);
      assert.match(page.html, /is not registered for the client/);
    }

    it('RFC 6749 §3.1.2.3: a tab, NUL, CR, LF or space around a registered URI is an error page, never a redirect or a 500', async () => {
      for (const uri of [
        `${NATIVE}\t`,
        `${NATIVE}\u0000`,
        `${NATIVE}\r\n`,
        `${NATIVE}\n`,
        `\r${NATIVE}`,
        ` ${NATIVE}`,
        `${NATIVE} `,
        `${WEB}\t`,
        `${WEB}\u0000`,
      ]) {
        assertNotRedirected(await authorize('native', uri), uri);
        assertNotRedirected(await authorize('web', uri), uri);
      }
    });

    it('RFC 6749 §3.1.2.3: a trailing slash, the path in another case or userinfo naming 127.0.0.1 is not registered', async () => {
      for (const uri of [
        `${NATIVE}/`,
        'http://127.0.0.1:3299/CB',
        'https://web.example/callback',
        'http://127.0.0.1@evil/cb',
      ])
        assertNotRedirected(await authorize(uri.startsWith('https') ? 'web' : 'native', uri), uri);
    });

    it('RFC 8252 §8.3: localhost on another port is not registered (the port exception is for IP literals only)', async () => {
      assertNotRedirected(await authorize('native', 'http://localhost:4000/cb'), 'localhost:4000');
      assert.equal((await authorize('native', LOCALHOST)).status, 302);
    });

    it('RFC 8252 §7.3: a native (public) client is sent to its loopback IP literal URI on any port, byte for byte', async () => {
      const page = await authorize('native', 'http://127.0.0.1:4000/cb');
      assert.equal(page.status, 302);
      assert.ok(page.location?.startsWith('http://127.0.0.1:4000/cb?error=unsupported_response_type&'), page.location);
    });

    it('RFC 8252 §7.3: a confidential (web) client registered the same loopback URI gets no other port', async () => {
      assertNotRedirected(await authorize('web', 'http://127.0.0.1:4000/cb'), 'web on port 4000');
      const page = await authorize('web', NATIVE);
      assert.equal(page.status, 302);
      assert.ok(page.location?.startsWith(`${NATIVE}?error=unsupported_response_type&`), page.location);
    });

    it('a registered URI holding a NUL is an error page, not a 500 with the NUL in the Location', async () => {
      assertNotRedirected(await authorize('native', NUL), NUL);
    });

    it('RP-Initiated Logout §3: a post_logout_redirect_uri with a control is a page, never a redirect or a 500', async () => {
      const endSession = (uri: string): Promise<PageAnswer> =>
        new PageBrowser(server).get(
          `/end-session?${new URLSearchParams({ client_id: 'web', post_logout_redirect_uri: uri })}`,
        );
      for (const uri of [`${SIGNED_OUT}\t`, `${SIGNED_OUT}\u0000`, ` ${SIGNED_OUT}`, `${SIGNED_OUT}/`]) {
        const page = await endSession(uri);
        assert.equal(page.status, 400, JSON.stringify(uri));
        assert.equal(page.location, undefined, JSON.stringify(uri));
      }
      // Without an id_token_hint the user is asked first; confirming sends the browser back exactly.
      const browser = new PageBrowser(server);
      const asked = await browser.get(
        `/end-session?${new URLSearchParams({ client_id: 'web', post_logout_redirect_uri: SIGNED_OUT })}`,
      );
      assert.equal(asked.status, 200);
      const back = await browser.post('/logout', {
        csrf_token: hiddenField(asked.html, 'csrf_token'),
        request: hiddenField(asked.html, 'request'),
      });
      assert.equal(back.status, 303);
      assert.equal(back.location, `${SIGNED_OUT}?`, 'the registered URI, byte for byte, and no state');
    });
  });
