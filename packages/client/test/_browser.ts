import assert from 'node:assert/strict';
import { PASSWORD } from './_gatehouse.js';

export interface Page {
  readonly status: number;
  readonly html: string;
  readonly location: string | undefined;
  readonly headers: Headers;
}

/**
 * A user at a browser, as far as the authorization pages care: keeps the session cookie, follows
 * redirects on the server's origin, fills in the sign-in and consent forms, and records the pages it
 * was shown. `authorize` returns the URL the server sends the browser back to (the client's
 * redirect URI with `code`, `state` and `iss`, or an error).
 */
export class UserAgent {
  #cookie: string | undefined;
  /** The pages (status 200) shown during the last `authorize`: 'login' or 'consent'. */
  pagesShown: string[] = [];
  /** The form a response_mode=form_post page posted back to the client in the last `authorize`. */
  formPosted: URLSearchParams | undefined;

  async authorize(
    authorizationUrl: string,
    { username = 'alice', password = PASSWORD, decision = 'allow' } = {},
  ): Promise<string> {
    const origin = new URL(authorizationUrl).origin;
    this.pagesShown = [];
    this.formPosted = undefined;
    let page = await this.get(authorizationUrl);
    for (let step = 0; step < 8; step++) {
      const formPost = /<form id="response" method="post" action="([^"]*)"/.exec(page.html);
      if (page.status === 200 && formPost) {
        // OAuth 2.0 Form Post Response Mode: what its auto-submitting form would post to the client.
        this.formPosted = new URLSearchParams();
        for (const [, name, value] of page.html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
          this.formPosted.append(name as string, unescapeHtml(value as string));
        return unescapeHtml(formPost[1] as string);
      }
      if (page.status === 302 || page.status === 303) {
        const location = new URL(page.location ?? '', origin);
        if (location.origin !== origin) return location.href;
        page = await this.get(location.href);
      } else if (page.status === 200 && page.html.includes('action="/login"')) {
        this.pagesShown.push('login');
        page = await this.post(`${origin}/login`, {
          csrf_token: hidden(page.html, 'csrf_token'),
          request: hidden(page.html, 'request'),
          username,
          password,
        });
      } else if (page.status === 200 && page.html.includes('action="/consent"')) {
        this.pagesShown.push('consent');
        page = await this.post(`${origin}/consent`, {
          csrf_token: hidden(page.html, 'csrf_token'),
          request: hidden(page.html, 'request'),
          decision,
        });
      } else {
        assert.fail(`unexpected page ${page.status}: ${page.html.slice(0, 500)}`);
      }
    }
    assert.fail('the authorization flow did not come back to the client');
  }

  /**
   * The device page (RFC 8628 §3.3): types `userCode` at `verificationUri`, signs in, decides.
   * Returns the last page (the outcome).
   */
  async approveDevice(
    verificationUri: string,
    userCode: string,
    { username = 'alice', password = PASSWORD, decision = 'allow' } = {},
  ): Promise<Page> {
    const form = await this.get(verificationUri);
    const signIn = await this.post(verificationUri, {
      csrf_token: hidden(form.html, 'csrf_token'),
      user_code: userCode,
    });
    assert.match(signIn.html, /action="\/device\/login"/, `the sign-in form, got ${signIn.status}`);
    const consent = await this.post(`${verificationUri}/login`, {
      csrf_token: hidden(signIn.html, 'csrf_token'),
      request: hidden(signIn.html, 'request'),
      username,
      password,
    });
    assert.match(consent.html, /action="\/device\/consent"/, `the consent page, got ${consent.status}`);
    return this.post(`${verificationUri}/consent`, {
      csrf_token: hidden(consent.html, 'csrf_token'),
      request: hidden(consent.html, 'request'),
      decision,
    });
  }

  get(url: string): Promise<Page> {
    return this.#send(url, { method: 'GET' });
  }

  post(url: string, form: Record<string, string>): Promise<Page> {
    return this.#send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  async #send(url: string, init: RequestInit): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.#cookie !== undefined) headers.set('cookie', this.#cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.#cookie = setCookie.split(';')[0];
    return {
      status: response.status,
      html: await response.text(),
      location: response.headers.get('location') ?? undefined,
      headers: response.headers,
    };
  }
}

/** The value of a hidden form field, unescaped. */
export function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  assert.ok(match, `the page has a hidden field ${name}`);
  return unescapeHtml(match[1] as string);
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
