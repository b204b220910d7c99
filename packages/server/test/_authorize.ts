import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { s256 } from '../src/primitives/secrets.js';
import { addUser } from '../src/users/users.js';
import { hashPassword } from '../src/users/passwords.js';
import type { TestServer } from './_server.js';

/** A redirect URI of the test clients; nothing needs to listen there, redirects are not followed. */
export const CALLBACK = 'http://127.0.0.1:8765/callback';
export const PASSWORD = 'correct horse battery staple';

/** A fresh PKCE pair (RFC 7636 §4.1, §4.2). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** The query of a valid authorization request, with `overrides` (undefined removes a parameter). */
export function authorizationQuery(
  clientId: string,
  challenge: string,
  overrides: Record<string, string | undefined> = {},
): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: 'contacts:read',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  return new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
}

/** Adds a user who signs in with `password`; one a grant helper made already gets the password. */
export async function addTestUser(server: TestServer, username = 'alice', password = PASSWORD): Promise<void> {
  const { store } = server.context;
  if (await store.findUser(username)) {
    await store.updateUserPassword(username, await hashPassword(password), server.clock.now());
    return;
  }
  await addUser(store, username, password, server.clock.now());
}

/** One answer of the pages, read once. */
export interface PageAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  readonly location: string | undefined;
}

/**
 * A browser as far as the pages care: it keeps the session cookie and follows no redirect, so that
 * every step can be checked.
 */
export class PageBrowser {
  readonly #server: TestServer;
  /** The session cookie (`gatehouse_session=…`). */
  cookie: string | undefined;
  /** The language the browser chose on a page (`gatehouse_locale=…`), kept beside the session's. */
  localeCookie: string | undefined;
  /** Sent with every request, e.g. the X-Forwarded-For a proxy would add. */
  extraHeaders: Record<string, string> = {};

  constructor(server: TestServer) {
    this.#server = server;
  }

  get(pathAndQuery: string): Promise<PageAnswer> {
    return this.#send(pathAndQuery, { method: 'GET' });
  }

  post(path: string, form: Record<string, string | undefined>): Promise<PageAnswer> {
    const body = new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
    return this.#send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  /** POST with a body as given (repeats, odd types), e.g. an authorization request as a form. */
  postBody(
    pathAndQuery: string,
    body: string,
    contentType = 'application/x-www-form-urlencoded',
    headers: Record<string, string> = {},
  ): Promise<PageAnswer> {
    return this.#send(pathAndQuery, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
  }

  async #send(path: string, init: RequestInit): Promise<PageAnswer> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.extraHeaders)) headers.set(name, value);
    const cookies = [this.cookie, this.localeCookie].filter((c) => c !== undefined);
    if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
    const response = await fetch(`${this.#server.url}${path}`, { ...init, headers, redirect: 'manual' });
    for (const setCookie of response.headers.getSetCookie()) {
      const pair = setCookie.split(';')[0];
      if (pair?.startsWith('gatehouse_locale=')) this.localeCookie = pair;
      else this.cookie = pair;
    }
    return {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location: response.headers.get('location') ?? undefined,
    };
  }

  /** GET /authorize with a query. */
  authorize(query: string): Promise<PageAnswer> {
    return this.get(`/authorize?${query}`);
  }

  /** Posts the sign-in form of `page` (its hidden fields) with a username and password. */
  login(
    page: PageAnswer,
    username: string,
    password: string,
    override: Record<string, string | undefined> = {},
  ): Promise<PageAnswer> {
    return this.post('/login', {
      csrf_token: hiddenField(page.html, 'csrf_token'),
      request: hiddenField(page.html, 'request'),
      username,
      password,
      ...override,
    });
  }

  /** Posts the consent form of `page` with a decision. */
  consent(
    page: PageAnswer,
    decision: 'allow' | 'deny',
    override: Record<string, string | undefined> = {},
  ): Promise<PageAnswer> {
    return this.post('/consent', {
      csrf_token: hiddenField(page.html, 'csrf_token'),
      request: hiddenField(page.html, 'request'),
      decision,
      ...override,
    });
  }
}

/** The value of a hidden form field, unescaped. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  assert.ok(match, `the page has a hidden field ${name}`);
  return (match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}

/** The query parameters of a redirect to the client. */
export function callbackParams(location: string | undefined): Record<string, string> {
  assert.ok(location?.startsWith(CALLBACK), `a redirect to the client, got ${location}`);
  return Object.fromEntries(new URL(location as string).searchParams);
}

/** Runs the flow as a user would, up to the code: sign in (if needed) and allow. */
export async function obtainCode(
  browser: PageBrowser,
  query: string,
  username = 'alice',
  password = PASSWORD,
): Promise<Record<string, string>> {
  let page = await browser.authorize(query);
  if (page.status === 200 && page.html.includes('action="/login"')) {
    const signedIn = await browser.login(page, username, password);
    assert.equal(signedIn.status, 303, signedIn.html);
    page = await browser.get(signedIn.location as string);
  }
  if (page.status === 200) page = await browser.consent(page, 'allow');
  return callbackParams(page.location);
}

/** Asserts the headers every page carries: CSP forbidding scripts and framing, no caching. */
export function assertPageHeaders(page: PageAnswer): void {
  assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]) {
    assert.ok(csp.includes(directive), `CSP ${csp} has ${directive}`);
  }
  assert.match(csp, /form-action 'self'/);
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  assert.equal(page.headers.get('cache-control'), 'no-store');
}
