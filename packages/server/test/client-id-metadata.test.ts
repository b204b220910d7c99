import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { PROBLEMS } from '@gatehouse/contract';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';
import { addTestUser, authorizationQuery, CALLBACK, hiddenField, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { assertOAuthError, assertOkJson } from './_oauth-assertions.js';
import { startTlsServer, TEST_CA, TEST_HOST, type TlsServer } from './_tls.js';
import type { Resolver } from '../src/outbound/safe-fetch.js';
import { freshnessSeconds } from '../src/oauth/client-id-metadata/client-id-metadata.js';
import { configFromEnv } from '../src/config.js';
import { updateClient } from '../src/oauth/clients/client-administration.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { assertionFields, clientAssertion, clientKeyPair } from './_client-keys.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Test DNS: each name of the test resolves where the case needs it. */
const NAMES: Readonly<Record<string, string>> = {
  [TEST_HOST]: '127.0.0.1',
  'private.example.test': '10.0.0.5',
  'metadata.example.test': '169.254.169.254',
  'v6loopback.example.test': '::1',
};
const resolve: Resolver = async (hostname) => {
  const address = NAMES[hostname];
  if (address === undefined) throw new Error(`no test address for ${hostname}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

/** An https server with its own CA serving documents by path, counting requests and bytes sent. */
class DocumentHost {
  readonly routes = new Map<string, Handler>();
  readonly hits = new Map<string, number>();
  tls!: TlsServer;

  async start(): Promise<void> {
    this.tls = await startTlsServer((request, response) => {
      const path = request.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const route = this.routes.get(path);
      if (route) route(request, response);
      else response.writeHead(404).end();
    });
  }

  url(path: string, host = TEST_HOST): string {
    return `https://${host}:${this.tls.port}${path}`;
  }

  /** Serves a JSON document at `path`. */
  serve(path: string, document: object, headers: Record<string, string> = {}): void {
    this.routes.set(path, (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(document));
    });
  }

  agentDocument(path: string, extra: object = {}): object {
    return { client_id: this.url(path), client_name: 'Test Agent', redirect_uris: [CALLBACK], ...extra };
  }
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * A page that names a document client the way the pages must (draft-ietf-oauth-client-id-metadata-document
 * §6): by its host, in the title and every heading, with the icon's letter from the host; its own
 * `client_name` only as a claim below. The test host starts with "a", the test document's name with "T".
 */
function assertNamedByHost(html: string, where: string): void {
  assert.doesNotMatch(html, /<title>[^<]*Test Agent/, `${where}: the title`);
  assert.doesNotMatch(html, /<h1>(?:(?!<\/h1>)[^])*Test Agent/, `${where}: the heading`);
  assert.doesNotMatch(html, /class="mark mark-client" aria-hidden="true">T</, `${where}: the icon`);
  assert.match(
    html,
    new RegExp(`<(strong|span) class="client-name" translate="no">${TEST_HOST}</`),
    `${where}: the host`,
  );
  assert.match(html, /<span class="client-claim">Calls itself “Test Agent”, a name nobody checked<\/span>/, where);
}

const PAGE_TITLE = (code: keyof typeof PROBLEMS): RegExp =>
  new RegExp(`<h1>${PROBLEMS[code].title.replace(/'/g, '&#39;')}</h1>`);

for (const dialect of DIALECTS) {
  describe(`client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, ${dialect})`, () => {
    const host = new DocumentHost();
    let server: TestServer;

    before(async () => {
      await host.start();
      server = await startTestServer({
        dialect,
        clientIdMetadata: {
          mode: 'open',
          ca: TEST_CA,
          resolve,
          // The test's document host listens on loopback: the operator allows exactly that address.
          allowAddresses: ['127.0.0.1/32'],
          timeoutMs: 800,
          maxBytes: 16 * 1024,
        },
      });
      await addTestUser(server);
    });
    after(async () => {
      await server.close();
      await host.tls.close();
    });

    it('CIMD §5: the metadata says client_id_metadata_document_supported', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata['client_id_metadata_document_supported'], true);
    });

    it('a URL client_id signs in with its document: consent shows the host, tokens and refresh work without offline_access', async () => {
      host.serve('/agent.json', host.agentDocument('/agent.json'), { 'cache-control': 'max-age=600' });
      const clientId = host.url('/agent.json');
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const query = authorizationQuery(clientId, challenge, { scope: 'openid contacts:read' });
      const first = await browser.authorize(query);
      assert.equal(first.status, 200, first.html);
      assertNamedByHost(first.html, 'the sign-in page');
      const signedIn = await browser.login(first, 'alice', 'correct horse battery staple');
      const consent = await browser.get(signedIn.location as string);
      assertNamedByHost(consent.html, 'the consent page');
      assert.match(consent.html, new RegExp(`<title>Allow ${TEST_HOST}\\? · Gatehouse</title>`));
      assert.match(
        consent.html,
        new RegExp(`<h1><strong class="client-name" translate="no">${TEST_HOST}</strong> wants to access`),
      );
      assert.match(consent.html, new RegExp(`<strong class="client-host" translate="no">${TEST_HOST}</strong>`));
      const allowed = await browser.consent(consent, 'allow');
      const code = new URL(allowed.location as string).searchParams.get('code') as string;
      const tokens = await server.post('/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        client_id: clientId,
        code_verifier: verifier,
      });
      const body = (await tokens.json()) as Record<string, string>;
      assert.equal(tokens.status, 200, JSON.stringify(body));
      // Item 3: a public code-flow client gets a refresh token without asking for offline_access.
      assert.ok(body.refresh_token, 'a refresh token');
      const refreshed = await server.post('/token', {
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token,
        client_id: clientId,
      });
      const next = (await refreshed.json()) as Record<string, string>;
      assert.equal(refreshed.status, 200, JSON.stringify(next));
      // The agents' replay window: a concurrent replay of the just-rotated token gets the same successor.
      const replayed = await server.post('/token', {
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token,
        client_id: clientId,
      });
      assert.equal(replayed.status, 200);
      assert.equal(((await replayed.json()) as Record<string, string>).refresh_token, next.refresh_token);
      assert.equal(host.hits.get('/agent.json'), 1, 'fetched once');
      assertNamedByHost((await browser.get('/account')).html, 'the account page');
      const logout = await browser.get(`/logout?${new URLSearchParams({ client_id: clientId })}`);
      assert.match(
        logout.html,
        new RegExp(`<strong class="client-name" translate="no">${TEST_HOST}</strong> asked to sign you out`),
      );
      assert.doesNotMatch(logout.html, /Test Agent/);
    });

    it("a private_key_jwt document (RFC 7523 §2.2): the code is redeemed with an assertion signed by the document's key, never without one", async () => {
      const keys = await clientKeyPair();
      host.serve(
        '/keyed.json',
        host.agentDocument('/keyed.json', {
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: keys.jwks,
        }),
        { 'cache-control': 'max-age=600' },
      );
      const clientId = host.url('/keyed.json');
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const first = await browser.authorize(authorizationQuery(clientId, challenge, { scope: 'contacts:read' }));
      assert.equal(first.status, 200, first.html);
      const signedIn = await browser.login(first, 'alice', 'correct horse battery staple');
      const consent = await browser.get(signedIn.location as string);
      const allowed = await browser.consent(consent, 'allow');
      const code = new URL(allowed.location as string).searchParams.get('code') as string;
      const form = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
      const bare = await server.post('/token', { ...form, client_id: clientId });
      assert.equal(bare.status, 401, 'no assertion, no tokens');
      const assertion = await clientAssertion(keys, clientId, 'http://gatehouse.test', server.clock.now());
      const tokens = await server.post('/token', { ...form, ...assertionFields(assertion) });
      const body = (await tokens.json()) as Record<string, string>;
      assert.equal(tokens.status, 200, JSON.stringify(body));
      assert.ok(body.access_token);
    });

    it('a fresh document is not fetched again; a stale one is used at once and fetched again in the background', async () => {
      host.serve('/cached.json', host.agentDocument('/cached.json'), { 'cache-control': 'max-age=600' });
      const clientId = host.url('/cached.json');
      const browser = new PageBrowser(server);
      const query = authorizationQuery(clientId, pkce().challenge);
      assert.equal((await browser.authorize(query)).status, 200);
      assert.equal((await browser.authorize(query)).status, 200);
      assert.equal(host.hits.get('/cached.json'), 1, 'fresh for max-age=600');
      server.clock.advance(601);
      // Stale: the page is answered from the cache even though the document now fails to load.
      host.routes.set('/cached.json', (_, response) => response.writeHead(500).end());
      assert.equal((await browser.authorize(query)).status, 200);
      await server.context.clientIdMetadataDocuments.idle();
      assert.equal(host.hits.get('/cached.json'), 2, 'fetched again in the background');
      // Past fresh + stale, a document that cannot be fetched refuses the sign-in.
      server.clock.advance(24 * 60 * 60 + 1);
      const refused = await browser.authorize(query);
      assert.equal(refused.status, 400);
      assert.match(refused.html, PAGE_TITLE('client_metadata_document_unavailable'));
    });

    it('a document that turns a fapi2 client public leaves it unable to authenticate: the profile, kept by the refetch, refuses none (FAPI 2.0 §5.3.2.1, §5.4.1)', async () => {
      const keys = await clientKeyPair('ES256');
      const keyed = { token_endpoint_auth_method: 'private_key_jwt', jwks: keys.jwks };
      host.serve('/bank.json', host.agentDocument('/bank.json', keyed), { 'cache-control': 'max-age=600' });
      const clientId = host.url('/bank.json');
      const query = authorizationQuery(clientId, pkce().challenge);
      assert.equal((await new PageBrowser(server).authorize(query)).status, 200);
      // The operator holds it to the profile (it complies: private_key_jwt, keys).
      await updateClient(server.context.audit, clientId, (c) => ({ ...c, profile: 'fapi2' }), server.clock.now(), {
        id: 'cli',
      });
      // Its document then describes a public client; past fresh and stale, the next request fetches it.
      host.serve('/bank.json', host.agentDocument('/bank.json'));
      server.clock.advance(601 + 24 * 60 * 60);
      await new PageBrowser(server).authorize(query);
      const client = await server.context.store.findClient(clientId);
      assert.deepEqual([client?.authMethod, client?.profile], [undefined, 'fapi2']);
      await assertOAuthError(await server.post('/par', Object.fromEntries(new URLSearchParams(query))), {
        error: 'invalid_client',
        description: 'client authentication failed',
      });
    });

    it("a document's profile is ignored (a registration extension, RFC 7591 §2): a public agent document naming fapi2 still signs in, without a profile", async () => {
      host.serve('/profiled.json', host.agentDocument('/profiled.json', { profile: 'fapi2' }));
      const clientId = host.url('/profiled.json');
      assert.equal(
        (await new PageBrowser(server).authorize(authorizationQuery(clientId, pkce().challenge))).status,
        200,
      );
      assert.equal((await server.context.store.findClient(clientId))?.profile, undefined);
    });

    it('refresh tokens for agents: a document naming grant_types without refresh_token gets no refresh token', async () => {
      host.serve('/no-refresh.json', host.agentDocument('/no-refresh.json', { grant_types: ['authorization_code'] }));
      const clientId = host.url('/no-refresh.json');
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const first = await browser.authorize(authorizationQuery(clientId, challenge));
      const signedIn = await browser.login(first, 'alice', 'correct horse battery staple');
      const page = signedIn.location?.startsWith('/') ? await browser.get(signedIn.location) : signedIn;
      const answer = page.status === 200 ? await browser.consent(page, 'allow') : page;
      const code = new URL(answer.location as string).searchParams.get('code') as string;
      const tokens = await server.post('/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        client_id: clientId,
        code_verifier: verifier,
      });
      const body = (await tokens.json()) as Record<string, string>;
      assert.equal(tokens.status, 200, JSON.stringify(body));
      assert.equal(body.refresh_token, undefined);
    });

    /** The audit events of refused documents at `clientId`. */
    const refusals = async (clientId: string): Promise<(string | null)[]> =>
      (await server.context.store.listAuditEvents({ limit: 1000, event: 'client_metadata_document_refused' }))
        .filter((e) => e.clientId === clientId)
        .map((e) => e.reason);

    describe('the device flow (RFC 8628) with a URL client_id', () => {
      const deviceDocument = (path: string, extra: object = {}): object => ({
        client_id: host.url(path),
        client_name: 'Device Agent',
        grant_types: [DEVICE_GRANT, 'refresh_token'],
        ...extra,
      });

      it('RFC 8628 §3.1: a document naming the device grant starts the flow from the cache; the device page shows the host; tokens and refresh', async () => {
        host.serve('/device-agent.json', deviceDocument('/device-agent.json'), { 'cache-control': 'max-age=600' });
        const clientId = host.url('/device-agent.json');
        const started = await assertOkJson(await server.post('/device_authorization', { client_id: clientId }));
        await assertOkJson(await server.post('/device_authorization', { client_id: clientId }));
        assert.equal(host.hits.get('/device-agent.json'), 1, 'fetched once, then read from the cache');
        const browser = new PageBrowser(server);
        const form = await browser.get('/device');
        const signIn = await browser.post('/device', {
          csrf_token: hiddenField(form.html, 'csrf_token'),
          user_code: String(started.user_code),
        });
        const consent = await browser.post('/device/login', {
          csrf_token: hiddenField(signIn.html, 'csrf_token'),
          request: hiddenField(signIn.html, 'request'),
          username: 'alice',
          password: PASSWORD,
        });
        assert.equal(consent.status, 200, consent.html);
        assert.match(
          consent.html,
          new RegExp(`<h1><strong class="client-name" translate="no">${TEST_HOST}</strong> wants to access`),
        );
        assert.match(consent.html, /<span class="client-claim">Calls itself “Device Agent”/);
        assert.doesNotMatch(consent.html, /<title>[^<]*Device Agent|class="mark mark-client" aria-hidden="true">D</);
        const done = await browser.post('/device/consent', {
          csrf_token: hiddenField(consent.html, 'csrf_token'),
          request: hiddenField(consent.html, 'request'),
          decision: 'allow',
        });
        assert.equal(done.status, 200, done.html);
        assert.match(done.html, new RegExp(`<p class="summary">${TEST_HOST} now has access`));
        const tokens = await assertOkJson(
          await server.post('/token', {
            grant_type: DEVICE_GRANT,
            device_code: String(started.device_code),
            client_id: clientId,
          }),
        );
        assert.equal(typeof tokens.refresh_token, 'string');
        await assertOkJson(
          await server.post('/token', {
            grant_type: 'refresh_token',
            refresh_token: String(tokens.refresh_token),
            client_id: clientId,
          }),
        );
      });

      it('RFC 8628 §3.1: a document without the device grant is unauthorized_client', async () => {
        host.serve('/code-only.json', host.agentDocument('/code-only.json'));
        await assertOAuthError(await server.post('/device_authorization', { client_id: host.url('/code-only.json') }), {
          error: 'unauthorized_client',
          description: 'client is not allowed to use this grant type',
        });
      });

      it('RFC 6749 §5.2: a document that cannot be fetched or describes no client is invalid_client, and audited', async () => {
        host.serve(
          '/device-mismatch.json',
          deviceDocument('/device-mismatch.json', { client_id: 'https://x.example/a' }),
        );
        const mismatch = host.url('/device-mismatch.json');
        await assertOAuthError(await server.post('/device_authorization', { client_id: mismatch }), {
          error: 'invalid_client',
          description: 'the client ID metadata document at the client_id URL does not describe a valid client',
        });
        assert.deepEqual(await refusals(mismatch), [`client_id_mismatch (${new URL(mismatch).host})`]);
        const privateUrl = host.url('/device.json', 'private.example.test');
        await assertOAuthError(await server.post('/device_authorization', { client_id: privateUrl }), {
          error: 'invalid_client',
          description: 'the client ID metadata document at the client_id URL could not be fetched',
        });
        assert.deepEqual(await refusals(privateUrl), [`address_not_allowed (${new URL(privateUrl).host})`]);
        const fragment = `${host.url('/device.json')}#x`;
        await assertOAuthError(await server.post('/device_authorization', { client_id: fragment }), {
          error: 'invalid_client',
          description: 'client ID metadata documents are not accepted from this client_id URL',
        });
      });
    });

    it("a refetch refreshes what the document says and keeps the operator's policy (clients update)", async () => {
      host.serve('/managed.json', host.agentDocument('/managed.json'), { 'cache-control': 'max-age=600' });
      const clientId = host.url('/managed.json');
      const browser = new PageBrowser(server);
      const query = authorizationQuery(clientId, pkce().challenge);
      assert.equal((await browser.authorize(query)).status, 200);
      await updateClient(
        server.context.audit,
        clientId,
        (current) => ({
          ...current,
          replayWindow: 7,
          rotationLimit: 3,
          accessTokenTtl: 123,
          secondFactor: 'required',
          exchangeAudiences: ['https://billing.example'],
        }),
        server.clock.now(),
        CLI_ACTOR,
      );
      host.serve('/managed.json', host.agentDocument('/managed.json', { client_name: 'Renamed Agent' }));
      // Past fresh and stale: the next sign-in fetches the document again before answering.
      server.clock.advance(601 + 24 * 60 * 60);
      assert.equal((await browser.authorize(query)).status, 200);
      assert.equal(host.hits.get('/managed.json'), 2, 'fetched again');
      const client = await server.context.store.findClient(clientId);
      assert.equal(client?.name, 'Renamed Agent', "the document's name");
      assert.equal(client?.policy.replayWindow, 7);
      assert.equal(client?.policy.rotationLimit, 3);
      assert.equal(client?.accessTokenTtl, 123);
      assert.equal(client?.secondFactor, 'required');
      assert.deepEqual(client?.tokenExchange?.audiences, ['https://billing.example']);
    });

    it('a refused document is audited with its host and reason, never its body', async () => {
      host.routes.set('/not-json.json', (_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"client_id": "secret-looking body');
      });
      const notJson = host.url('/not-json.json');
      const page = await new PageBrowser(server).authorize(authorizationQuery(notJson, pkce().challenge));
      assert.match(page.html, PAGE_TITLE('client_metadata_document_invalid'));
      assert.deepEqual(await refusals(notJson), [`not_json (${new URL(notJson).host})`]);
      host.routes.set('/gone.json', (_, response) => response.writeHead(404).end());
      const gone = host.url('/gone.json');
      await new PageBrowser(server).authorize(authorizationQuery(gone, pkce().challenge));
      assert.deepEqual(await refusals(gone), [`unexpected_status (${new URL(gone).host})`]);
      const events = await server.context.store.listAuditEvents({ limit: 1000 });
      assert.ok(!JSON.stringify(events).includes('secret-looking'));
    });

    describe("a refused document is audited with the requester's address wherever a request resolves it", () => {
      /** The addresses of the refusals of `clientId`. */
      const addresses = async (clientId: string): Promise<(string | null)[]> =>
        (await server.context.store.listAuditEvents({ limit: 1000, event: 'client_metadata_document_refused' }))
          .filter((e) => e.clientId === clientId)
          .map((e) => e.address);
      /** A document URL of its own that answers 404: refused as unexpected_status. */
      const gone = (name: string): string => {
        host.routes.set(`/${name}.json`, (_, response) => response.writeHead(404).end());
        return host.url(`/${name}.json`);
      };

      it('GET /authorize (RFC 6749 §4.1.1)', async () => {
        const clientId = gone('gone-get');
        const page = await new PageBrowser(server).authorize(authorizationQuery(clientId, pkce().challenge));
        assert.equal(page.status, 400);
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('POST /authorize (OIDC Core §3.1.2.1)', async () => {
        const clientId = gone('gone-post');
        const page = await new PageBrowser(server).postBody(
          '/authorize',
          authorizationQuery(clientId, pkce().challenge),
        );
        assert.equal(page.status, 400);
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('GET /authorize with a request object (RFC 9101 §5)', async () => {
        const clientId = gone('gone-jar');
        const page = await new PageBrowser(server).authorize(
          new URLSearchParams({ client_id: clientId, request: 'x.y.z' }).toString(),
        );
        assert.equal(page.status, 400);
        assert.match(page.html, PAGE_TITLE('client_metadata_document_unavailable'));
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('POST /login, when the document became unusable since GET /authorize', async () => {
        host.serve('/gone-later.json', host.agentDocument('/gone-later.json'));
        const clientId = host.url('/gone-later.json');
        const browser = new PageBrowser(server);
        const first = await browser.authorize(authorizationQuery(clientId, pkce().challenge));
        assert.equal(first.status, 200, first.html);
        gone('gone-later');
        // The cached copy past its stale time (a day by default, longer than a browser session lives).
        const { store } = server.context;
        const [cached, client] = [await store.findClientIdMetadataDocument(clientId), await store.findClient(clientId)];
        assert.ok(cached && client);
        await store.saveClientIdMetadataDocument(client, { ...cached, usableUntil: server.clock.now() });
        const refused = await browser.login(first, 'alice', PASSWORD);
        assert.equal(refused.status, 400);
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('POST /par (RFC 9126 §2)', async () => {
        const clientId = gone('gone-par');
        await assertOAuthError(
          await server.post('/par', Object.fromEntries(new URLSearchParams(authorizationQuery(clientId, 'x')))),
          {
            error: 'invalid_client',
            description: 'the client ID metadata document at the client_id URL could not be fetched',
          },
        );
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('POST /device_authorization (RFC 8628 §3.1)', async () => {
        const clientId = gone('gone-device');
        assert.equal((await server.post('/device_authorization', { client_id: clientId })).status, 401);
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });

      it('POST /token (RFC 6749 §3.2)', async () => {
        const clientId = gone('gone-token');
        const form = { grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'v' };
        await assertOAuthError(await server.post('/token', { ...form, client_id: clientId }), {
          error: 'invalid_client',
          description: 'the client ID metadata document at the client_id URL could not be fetched',
        });
        assert.deepEqual(await addresses(clientId), ['127.0.0.1']);
      });
    });

    describe('documents that cannot describe the client are refused with a page, never redirected', () => {
      const cases: [string, object][] = [
        ['a client_id other than the URL (CIMD §4.1)', { client_id: 'https://elsewhere.example/agent.json' }],
        ['a shared-secret method (CIMD §4.1)', { token_endpoint_auth_method: 'client_secret_post' }],
        ['a client_secret (CIMD §4.1)', { client_secret: 'hunter2' }],
        ['private_key_jwt without keys', { token_endpoint_auth_method: 'private_key_jwt' }],
        ['an http redirect URI off loopback (RFC 8252 §8.3)', { redirect_uris: ['http://agent.example/cb'] }],
        ['the client_credentials grant', { grant_types: ['authorization_code', 'client_credentials'] }],
      ];
      cases.forEach(([name, change], i) => {
        it(name, async () => {
          const path = `/invalid-${i}.json`;
          host.serve(path, host.agentDocument(path, change));
          const page = await new PageBrowser(server).authorize(authorizationQuery(host.url(path), pkce().challenge));
          assert.equal(page.status, 400, page.html);
          assert.equal(page.location, undefined);
          assert.match(page.html, PAGE_TITLE('client_metadata_document_invalid'));
        });
      });
    });

    describe('SSRF: the server fetches nothing it should not (RFC 9700 §4.20)', () => {
      for (const [name, address] of Object.entries(NAMES).filter(([n]) => n !== TEST_HOST)) {
        it(`a document URL whose host resolves to ${address} is refused`, async () => {
          const page = await new PageBrowser(server).authorize(
            authorizationQuery(host.url('/agent.json', name), pkce().challenge),
          );
          assert.equal(page.status, 400, page.html);
          assert.match(page.html, PAGE_TITLE('client_metadata_document_unavailable'));
          assert.match(page.html, /non-public address/);
          const url = host.url('/agent.json', name);
          assert.deepEqual(await refusals(url), [`address_not_allowed (${new URL(url).host})`]);
        });
      }

      it('a redirect (to the cloud metadata address) is not followed', async () => {
        host.routes.set('/moved.json', (_, response) =>
          response.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end(),
        );
        const page = await new PageBrowser(server).authorize(
          authorizationQuery(host.url('/moved.json'), pkce().challenge),
        );
        assert.equal(page.status, 400);
        assert.match(page.html, PAGE_TITLE('client_metadata_document_unavailable'));
        assert.match(page.html, /redirect, which is never followed/);
        assert.deepEqual(await refusals(host.url('/moved.json')), [
          `redirect_not_followed (${TEST_HOST}:${host.tls.port})`,
        ]);
      });

      it('a 10 MB document is cut off at the size limit', async () => {
        let sent = 0;
        host.routes.set('/huge.json', (_, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          const pump = (): void => {
            while (sent < 10 * 1024 * 1024 && !response.destroyed) {
              sent += chunk.length;
              if (!response.write(chunk)) return void response.once('drain', pump);
            }
            response.end();
          };
          pump();
        });
        const page = await new PageBrowser(server).authorize(
          authorizationQuery(host.url('/huge.json'), pkce().challenge),
        );
        assert.equal(page.status, 400);
        assert.match(page.html, /larger than the size limit/);
        assert.ok(sent < 10 * 1024 * 1024, `the host could send only ${sent} bytes`);
        assert.deepEqual(await refusals(host.url('/huge.json')), [`too_large (${TEST_HOST}:${host.tls.port})`]);
      });

      it('a slow document is given up at the time limit', async () => {
        host.routes.set('/slow.json', (_, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write('{');
          const timer = setInterval(() => response.write(' '), 100);
          response.on('close', () => clearInterval(timer));
        });
        const started = Date.now();
        const page = await new PageBrowser(server).authorize(
          authorizationQuery(host.url('/slow.json'), pkce().challenge),
        );
        assert.equal(page.status, 400);
        assert.match(page.html, /did not arrive within the time limit/);
        assert.ok(Date.now() - started < 5000);
        assert.deepEqual(await refusals(host.url('/slow.json')), [`timeout (${TEST_HOST}:${host.tls.port})`]);
      });

      it('a URL with a dot segment, a fragment or no path is refused before any fetch', async () => {
        const before = [...host.hits.values()].reduce((a, b) => a + b, 0);
        for (const clientId of [
          `https://${TEST_HOST}:${host.tls.port}/a/../agent.json`,
          `https://${TEST_HOST}:${host.tls.port}/`,
          `https://${TEST_HOST}:${host.tls.port}/agent.json#x`,
        ]) {
          const page = await new PageBrowser(server).authorize(authorizationQuery(clientId, pkce().challenge));
          assert.equal(page.status, 400, clientId);
          assert.match(page.html, PAGE_TITLE('client_metadata_document_not_allowed'));
        }
        assert.equal(
          [...host.hits.values()].reduce((a, b) => a + b, 0),
          before,
        );
      });
    });
  });
}

describe('client ID metadata documents: operator policy', () => {
  const host = new DocumentHost();
  before(() => host.start());
  after(() => host.tls.close());

  it('off (the default): a URL client_id is an unknown client, and the metadata says false', async () => {
    const server = await startTestServer();
    try {
      const metadata = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata['client_id_metadata_document_supported'], false);
      host.serve('/off.json', host.agentDocument('/off.json'));
      const page = await new PageBrowser(server).authorize(authorizationQuery(host.url('/off.json'), pkce().challenge));
      assert.equal(page.status, 400);
      assert.match(page.html, PAGE_TITLE('invalid_authorization_request'));
      assert.equal(host.hits.get('/off.json'), undefined);
    } finally {
      await server.close();
    }
  });

  it('allowlist: a host not on the list is refused before any fetch; a listed one works', async () => {
    const server = await startTestServer({
      clientIdMetadata: {
        mode: 'allowlist',
        allowHosts: ['*.example.org', TEST_HOST],
        ca: TEST_CA,
        resolve,
        allowAddresses: ['127.0.0.1'],
      },
    });
    try {
      host.serve('/listed.json', host.agentDocument('/listed.json'));
      const unlisted = host.url('/listed.json', 'private.example.test');
      const page = await new PageBrowser(server).authorize(authorizationQuery(unlisted, pkce().challenge));
      assert.equal(page.status, 400);
      assert.match(page.html, PAGE_TITLE('client_metadata_document_not_allowed'));
      assert.equal(host.hits.get('/listed.json'), undefined);
      const listed = await new PageBrowser(server).authorize(
        authorizationQuery(host.url('/listed.json'), pkce().challenge),
      );
      assert.equal(listed.status, 200, listed.html);
      assert.equal(host.hits.get('/listed.json'), 1);
    } finally {
      await server.close();
    }
  });

  it('open without an address allowance: a host resolving to 127.0.0.1 is refused', async () => {
    const server = await startTestServer({ clientIdMetadata: { mode: 'open', ca: TEST_CA, resolve } });
    try {
      host.serve('/loopback.json', host.agentDocument('/loopback.json'));
      const page = await new PageBrowser(server).authorize(
        authorizationQuery(host.url('/loopback.json'), pkce().challenge),
      );
      assert.equal(page.status, 400);
      assert.match(page.html, /non-public address/);
      assert.equal(host.hits.get('/loopback.json'), undefined);
    } finally {
      await server.close();
    }
  });

  it('deny list: a denied host is refused in open mode before any fetch', async () => {
    const server = await startTestServer({
      clientIdMetadata: { mode: 'open', denyHosts: [TEST_HOST], ca: TEST_CA, resolve, allowAddresses: ['127.0.0.1'] },
    });
    try {
      host.serve('/denied.json', host.agentDocument('/denied.json'));
      const page = await new PageBrowser(server).authorize(
        authorizationQuery(host.url('/denied.json'), pkce().challenge),
      );
      assert.equal(page.status, 400);
      assert.match(page.html, /denied by the operator/);
      assert.equal(host.hits.get('/denied.json'), undefined);
    } finally {
      await server.close();
    }
  });

  it('configuration: CLIENT_ID_METADATA_* from the environment, wrong values stop the server', () => {
    assert.equal(configFromEnv({}).clientIdMetadata.mode, 'off');
    const config = configFromEnv({
      CLIENT_ID_METADATA_DOCUMENTS: 'allowlist',
      CLIENT_ID_METADATA_ALLOW_HOSTS: 'Agent.Example, *.tools.example',
      CLIENT_ID_METADATA_DENY_HOSTS: 'bad.example',
      CLIENT_ID_METADATA_CACHE_MIN: '60',
      CLIENT_ID_METADATA_CACHE_MAX: '3600',
      CLIENT_ID_METADATA_MAX_BYTES: '4096',
      CLIENT_ID_METADATA_ALLOW_ADDRESSES: '10.1.0.0/16,::1',
    }).clientIdMetadata;
    assert.equal(config.mode, 'allowlist');
    assert.deepEqual(config.allowHosts, ['agent.example', '*.tools.example']);
    assert.deepEqual(config.denyHosts, ['bad.example']);
    assert.equal(config.cacheFloorSeconds, 60);
    assert.equal(config.cacheCeilingSeconds, 3600);
    assert.equal(config.maxBytes, 4096);
    assert.deepEqual(config.allowAddresses, ['10.1.0.0/16', '::1/128']);
    assert.throws(() => configFromEnv({ CLIENT_ID_METADATA_DOCUMENTS: 'yes' }), /CLIENT_ID_METADATA_DOCUMENTS/);
    assert.throws(() => configFromEnv({ CLIENT_ID_METADATA_ALLOW_ADDRESSES: 'intranet' }), /ALLOW_ADDRESSES/);
    assert.throws(() => configFromEnv({ CLIENT_ID_METADATA_TIMEOUT_MS: '5s' }), /CLIENT_ID_METADATA_TIMEOUT_MS/);
    assert.throws(
      () => configFromEnv({ CLIENT_ID_METADATA_CACHE_MIN: '100', CLIENT_ID_METADATA_CACHE_MAX: '10' }),
      /CACHE_MIN/,
    );
  });

  it('freshness: the document’s caching headers, within the floor and the ceiling', () => {
    const policy = { cacheFloorSeconds: 300, cacheCeilingSeconds: 86400 };
    assert.equal(freshnessSeconds({ 'cache-control': 'max-age=3600' }, policy), 3600);
    assert.equal(freshnessSeconds({ 'cache-control': 'max-age=5' }, policy), 300);
    assert.equal(freshnessSeconds({ 'cache-control': 'public, max-age=999999' }, policy), 86400);
    assert.equal(freshnessSeconds({ 'cache-control': 'no-store' }, policy), 300);
    assert.equal(freshnessSeconds({}, policy), 300);
    const date = 'Wed, 25 Nov 2026 00:00:00 GMT';
    assert.equal(freshnessSeconds({ date, expires: 'Wed, 25 Nov 2026 02:00:00 GMT' }, policy), 7200);
  });
});
