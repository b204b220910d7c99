import assert from 'node:assert/strict';
import { PASSWORD } from './_gatehouse.js';

/**
 * A user at a browser, as far as the authorization pages care: keeps the session cookie, follows
 * no redirect itself, fills in the sign-in and consent forms. Returns the URL the server sends the
 * browser back to (the client's redirect URI with `code`, `state` and `iss`).
 */
export class UserAgent {
  #cookie: string | undefined;

  async authorize(
    authorizationUrl: string,
    { username = 'alice', password = PASSWORD, decision = 'allow' } = {},
  ): Promise<string> {
    const origin = new URL(authorizationUrl).origin;
    let page = await this.#send(authorizationUrl, { method: 'GET' });
    for (let step = 0; step < 6; step++) {
      if (page.status === 302 || page.status === 303) {
        const location = new URL(page.location ?? '', origin);
        if (location.origin !== origin) return location.href;
        page = await this.#send(location.href, { method: 'GET' });
      } else if (page.status === 200 && page.html.includes('action="/login"')) {
        page = await this.#post(`${origin}/login`, {
          csrf_token: hidden(page.html, 'csrf_token'),
          request: hidden(page.html, 'request'),
          username,
          password,
        });
      } else if (page.status === 200 && page.html.includes('action="/consent"')) {
        page = await this.#post(`${origin}/consent`, {
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

  #post(url: string, form: Record<string, string>): Promise<Page> {
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
    };
  }
}

interface Page {
  readonly status: number;
  readonly html: string;
  readonly location: string | undefined;
}

function hidden(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  assert.ok(match, `the page has a hidden field ${name}`);
  return (match[1] as string)
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}
