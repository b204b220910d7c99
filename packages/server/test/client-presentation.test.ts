/**
 * A client as the sign-in and consent pages present it (RFC 7591 §2): its logo (fetched at
 * registration, served from this origin), its home page, privacy policy and terms with their
 * hosts, and its name in the page's language (§2.2 `client_name#de`), on both dialects.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { fetchImage } from '../src/outbound/images.js';
import { CLIENT_LOGO_LIMITS, fetchClientLogo } from '../src/oauth/clients/index.js';
import { addTestUser, authorizationQuery, CALLBACK, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { runCliCaptured } from './_cli.js';
import { DIALECTS } from './_dialects.js';
import { solidPng } from './_images.js';
import { startTestServer, type TestServer } from './_server.js';

const LOGO = solidPng(64, [11, 110, 79]);

for (const dialect of DIALECTS)
  describe(`client presentation on the pages (${dialect})`, () => {
    let server: TestServer;
    let images: Server;
    let imagesUrl: string;
    let clientId: string;

    before(async () => {
      images = createServer((request, response) =>
        request.url === '/logo.png'
          ? response.writeHead(200, { 'content-type': 'image/png' }).end(LOGO)
          : response.writeHead(404).end(),
      );
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      imagesUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}`;
      server = await startTestServer({
        dialect,
        clientRegistration: 'open',
        // The test's logos are on loopback, which a registered client's never may be (client-presentation.ts).
        clientLogoFetcher: (url) =>
          fetchImage(url, { ...CLIENT_LOGO_LIMITS, allowLoopback: true }).catch(() => undefined),
      });
      await addTestUser(server);
      const response = await register({
        client_name: 'Photo Book',
        'client_name#de': 'Fotobuch',
        'client_name#JA': 'フォトブック',
        logo_uri: `${imagesUrl}/logo.png`,
        client_uri: 'https://photos.example/',
        policy_uri: 'https://legal.photos.example/privacy',
        tos_uri: 'https://legal.photos.example/terms',
      });
      assert.equal(response.status, 201);
      const info = (await response.json()) as Record<string, unknown>;
      clientId = info.client_id as string;
      // RFC 7591 §3.2.1: the registration answers the metadata as registered, the tag canonical.
      assert.equal(info['client_name#de'], 'Fotobuch');
      assert.equal(info['client_name#ja'], 'フォトブック');
      assert.equal(info['client_name#JA'], undefined);
    });
    after(async () => {
      await server.close();
      images.close();
    });

    const register = (body: Record<string, unknown>) =>
      fetch(`${server.url}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: 'none',
          scope: 'openid',
          ...body,
        }),
      });

    const signInPage = async (uiLocales: string) => {
      const browser = new PageBrowser(server);
      const query = authorizationQuery(clientId, pkce().challenge, { scope: 'openid', ui_locales: uiLocales });
      const page = await browser.authorize(query);
      assert.equal(page.status, 200, page.html);
      return { browser, page };
    };

    test('RFC 7591 §2.2: the sign-in page names the client in its language, else by client_name', async () => {
      assert.match((await signInPage('de')).page.html, /<h1>[^<]*<\/h1>\n<p class="lead">[^\n]*Fotobuch/);
      assert.match((await signInPage('ja')).page.html, /フォトブック/);
      const french = (await signInPage('fr')).page.html;
      assert.match(french, /Photo Book/);
      assert.doesNotMatch(french, /Fotobuch|フォトブック/);
    });

    test('RFC 7591 §2: the logo is served from this origin, the links shown with their hosts', async () => {
      const { html } = (await signInPage('en')).page;
      const src = /<img class="mark mark-logo" src="(\/client-logos\/[^"]+)" alt="" width="56" height="56">/.exec(html);
      assert.ok(src, html);
      assert.doesNotMatch(html, new RegExp(imagesUrl.replace(/[.:/]/g, '\\$&')));
      const logo = await fetch(`${server.url}${src[1]!.replaceAll('&amp;', '&')}`);
      assert.equal(logo.status, 200);
      assert.equal(logo.headers.get('content-type'), 'image/png');
      assert.equal(logo.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.deepEqual(Buffer.from(await logo.arrayBuffer()), LOGO);
      assert.match(
        html,
        /<ul class="client-links" aria-label="About the application"><li><a href="https:\/\/photos.example\/" rel="noopener noreferrer">Website<\/a> <span class="client-host" translate="no">photos.example<\/span><\/li><li><a href="https:\/\/legal.photos.example\/privacy" rel="noopener noreferrer">Privacy policy<\/a> <span class="client-host" translate="no">legal.photos.example<\/span><\/li><li><a href="https:\/\/legal.photos.example\/terms" rel="noopener noreferrer">Terms of service<\/a> <span class="client-host" translate="no">legal.photos.example<\/span><\/li><\/ul>/,
      );
      assert.match((await signInPage('de')).page.html, /Datenschutzerklärung<\/a> <span class="client-host"/);
    });

    test('the consent page shows the same logo, links and language-tagged name', async () => {
      const { browser, page } = await signInPage('de');
      const signedIn = await browser.login(page, 'alice', PASSWORD);
      assert.equal(signedIn.status, 303, signedIn.html);
      const consent = await browser.get(signedIn.location!);
      assert.equal(consent.status, 200);
      assert.match(consent.html, /action="\/consent"/);
      assert.match(consent.html, /Fotobuch/);
      assert.match(consent.html, /class="mark mark-logo" src="\/client-logos\//);
      assert.match(
        consent.html,
        /Nutzungsbedingungen<\/a> <span class="client-host" translate="no">legal.photos.example/,
      );
    });

    test('a logo that cannot be fetched leaves the monogram; an unknown client has no logo', async () => {
      const response = await register({ client_name: 'No Logo', logo_uri: `${imagesUrl}/missing.png` });
      assert.equal(response.status, 201);
      const id = ((await response.json()) as { client_id: string }).client_id;
      const page = await new PageBrowser(server).authorize(
        authorizationQuery(id, pkce().challenge, { scope: 'openid' }),
      );
      assert.match(page.html, /<span class="mark mark-client" aria-hidden="true" translate="no">N<\/span>/);
      assert.equal((await fetch(`${server.url}/client-logos/${id}`)).status, 404);
    });

    test('`clients add` and `clients update` set the logo, links and names by language; a logo that cannot be fetched is refused', async () => {
      const env = { DATABASE_URL: server.databaseUrl };
      const added = await runCliCaptured(
        [
          'clients',
          'add',
          '--id',
          'cli-app',
          '--name',
          'CLI App',
          '--public',
          '--redirect-uri',
          CALLBACK,
          '--scope',
          'openid',
          '--logo-uri',
          `${imagesUrl}/logo.png`,
          '--policy-uri',
          'https://cli.example/privacy',
          '--localized-name',
          'de=CLI-Anwendung',
        ],
        env,
      );
      assert.equal(added.code, 0, added.err);
      const shown = JSON.parse(added.out) as Record<string, unknown>;
      assert.equal(shown['client_name#de'], 'CLI-Anwendung');
      assert.equal(shown['policy_uri'], 'https://cli.example/privacy');
      assert.match(String(shown['logo']), /^image\/png, /);
      const page = await new PageBrowser(server).authorize(
        authorizationQuery('cli-app', pkce().challenge, { scope: 'openid', ui_locales: 'de' }),
      );
      assert.match(page.html, /CLI-Anwendung/);
      assert.match(page.html, /class="mark mark-logo" src="\/client-logos\/cli-app\?v=/);
      assert.match(page.html, /Datenschutzerklärung<\/a> <span class="client-host" translate="no">cli.example/);

      const updated = await runCliCaptured(
        ['clients', 'update', 'cli-app', '--policy-uri', '', '--localized-name', 'ja=CLIアプリ'],
        env,
      );
      assert.equal(updated.code, 0, updated.err);
      const after = JSON.parse(updated.out) as Record<string, unknown>;
      assert.equal(after['policy_uri'], undefined);
      assert.equal(after['client_name#ja'], 'CLIアプリ');
      assert.equal(after['client_name#de'], 'CLI-Anwendung');

      const refused = await runCliCaptured(
        [
          'clients',
          'add',
          '--id',
          'cli-bad',
          '--name',
          'Bad',
          '--public',
          '--redirect-uri',
          CALLBACK,
          '--scope',
          'openid',
          '--logo-uri',
          `${imagesUrl}/missing.png`,
        ],
        env,
      );
      assert.equal(refused.code, 1);
      assert.match(refused.err, /--logo-uri: http:\/\/127\.0\.0\.1:\d+\/missing\.png answered HTTP 404, not the image/);
      assert.equal(await server.context.store.findClient('cli-bad'), undefined);
      const badTag = await runCliCaptured(['clients', 'update', 'cli-app', '--localized-name', 'not a tag=X'], env);
      assert.equal(badTag.code, 1);
      assert.match(badTag.err, /client_name#not a tag/);
    });

    test('a registered logo_uri never leads the server to a loopback address (SSRF)', async () => {
      assert.equal(await fetchClientLogo(`${imagesUrl}/logo.png`), undefined);
    });

    test('a language tag that is not BCP 47 is refused as invalid_client_metadata, naming the field', async () => {
      const response = await register({ client_name: 'X', 'client_name#not a tag': 'Y' });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_client_metadata');
      assert.match(body.error_description, /client_name#not a tag/);
    });
  });
