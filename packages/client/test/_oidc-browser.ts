import assert from 'node:assert/strict';
import { PASSWORD } from './_gatehouse.js';

export interface Page {
  readonly status: number;
  readonly html: string;
  readonly location: string | undefined;
  readonly headers: Headers;
}

/** The value of a hidden form field, unescaped. */
export function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  assert.ok(match, `the page has a hidden field ${name}`);
  return (match[1] as string)
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

/**
 * A browser for the OpenID Connect tests: keeps its session cookie, follows redirects on the
 * server's origin, signs in and consents when asked, and records every page it was shown.
 */
export class OidcBrowser {
  #cookie: string | undefined;
  /** The pages (status 200) shown during the last `authorize`. */
  pagesShown: string[] = [];

  /** Runs an authorization request until it comes back to the client; returns the callback URL. */
  async authorize(
    authorizationUrl: string,
    { username = 'alice', password = PASSWORD, decision = 'allow' } = {},
  ): Promise<string> {
    const origin = new URL(authorizationUrl).origin;
    this.pagesShown = [];
    let page = await this.get(authorizationUrl);
    for (let step = 0; step < 8; step++) {
      if (page.status === 302 || page.status === 303) {
        const location = new URL(page.location ?? '', origin);
        if (location.origin !== origin) return location.href;
        page = await this.get(location.href);
        continue;
      }
      assert.equal(page.status, 200, page.html.slice(0, 500));
      this.pagesShown.push(page.html.includes('action="/login"') ? 'login' : 'consent');
      page = page.html.includes('action="/login"')
        ? await this.post(`${origin}/login`, {
            csrf_token: hidden(page.html, 'csrf_token'),
            request: hidden(page.html, 'request'),
            username,
            password,
          })
        : await this.post(`${origin}/consent`, {
            csrf_token: hidden(page.html, 'csrf_token'),
            request: hidden(page.html, 'request'),
            decision,
          });
    }
    assert.fail('the authorization flow did not come back to the client');
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

/** The grant id in the account page's entry of the application named `name`. */
export function grantIdOnAccountPage(html: string, name: string): string {
  const entry = html.split('<li class="application">').find((part) => part.includes(`>${name}</strong>`));
  assert.ok(entry, `the account page lists ${name}`);
  return hidden(entry, 'grant_id');
}
