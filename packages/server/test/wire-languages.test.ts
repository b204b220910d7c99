import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SUPPORTED_LOCALES } from '../src/i18n/index.js';
import { authorizationQuery, CALLBACK, pkce } from './_authorize.js';
import { basicAuthorization, startTestServer, type TestClient, type TestServer } from './_server.js';

/**
 * What stays English byte for byte whatever the language a person or a client asks for: the wire.
 * OAuth `error` and `error_description` (RFC 6749 §5.2, §4.1.2.1), the REST API's missing-field
 * detail and every problem's title and detail (RFC 9457), the WWW-Authenticate challenges (RFC 6750
 * §3), the catalog pages' JSON form. Only HTML pages are translated.
 */
describe('the wire contract is the same in every language', () => {
  let server: TestServer;
  let app: TestClient;
  let token: string;

  before(async () => {
    server = await startTestServer();
    app = await server.addClient({ id: 'app', name: 'Contacts Sync', redirectUris: [CALLBACK] });
    token = (await server.issueGrant(app, 'alice', ['contacts:write'])).access_token;
  });
  after(() => server.close());

  /** The headers of a request asking for `locale` every way a request can: Accept-Language and the cookie. */
  const asking = (locale: string): Record<string, string> => ({
    'accept-language': `${locale}, en;q=0.1`,
    cookie: `gatehouse_locale=${locale}`,
  });

  /** Every answer of the wire to one request, as bytes: status, the headers a client reads, the body. */
  async function wire(locale: string | undefined): Promise<string[]> {
    const headers = locale === undefined ? {} : asking(locale);
    const uiLocales: Record<string, string> = locale === undefined ? {} : { ui_locales: locale };
    const form = (body: Record<string, string>) => ({
      method: 'POST',
      headers: {
        ...headers,
        authorization: basicAuthorization(app.id, app.secret as string),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(body).toString(),
    });
    const answers: Response[] = [
      await fetch(`${server.url}/token`, form({ grant_type: 'refresh_token', refresh_token: 'nope', ...uiLocales })),
      await fetch(`${server.url}/token`, form({ grant_type: 'password', ...uiLocales })),
      await fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'No e-mail' }),
      }),
      await fetch(`${server.url}/v2/contacts`, { headers }),
      await fetch(`${server.url}/userinfo`, { headers: { ...headers, authorization: 'Bearer nope' } }),
      await fetch(`${server.url}/problems/invalid-grant`, { headers: { ...headers, accept: 'application/json' } }),
      await fetch(`${server.url}/no/such/thing`, { headers }),
      await fetch(
        `${server.url}/authorize?${authorizationQuery('app', pkce().challenge, { scope: 'nope', ...uiLocales })}`,
        {
          headers,
          redirect: 'manual',
        },
      ),
    ];
    return Promise.all(
      answers.map(async (r) => {
        // The redirect's parameters but ui_locales' own echo; every body as sent.
        const location = r.headers.get('location') ?? '';
        return [r.status, r.headers.get('www-authenticate') ?? '', location, await r.text()].join('\n');
      }),
    );
  }

  it('OAuth errors, problem bodies (the missing-field detail included), challenges and catalog JSON are byte-identical whatever ui_locales, the cookie and Accept-Language ask', async () => {
    const english = await wire(undefined);
    assert.match(english[2] as string, /Missing required field 'email' in request body/);
    assert.match(english[0] as string, /"error":"invalid_grant"/);
    assert.match(english[4] as string, /^401\nBearer /);
    assert.match(english[7] as string, /error=invalid_scope/);
    for (const locale of SUPPORTED_LOCALES) assert.deepEqual(await wire(locale), english, locale);
  });

  it('the HTML page of the same error is translated: the wire is English, the page is not', async () => {
    const page = await fetch(`${server.url}/problems/invalid-grant`, { headers: asking('de') });
    const html = await page.text();
    assert.match(html, /<html lang="de" dir="ltr">/);
    assert.match(html, /<code translate="no">invalid_grant<\/code>/);
  });
});
