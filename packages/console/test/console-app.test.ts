import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '@formatjs/icu-messageformat-parser';
import { checkIdToken, isMultiFactor } from '../src/id-token.js';
import { CATALOGS, chooseLocale, consoleText } from '../src/i18n/index.js';
import { en } from '../src/i18n/en.js';
import { formatMessage } from '../src/i18n/format.js';

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object): string => `${b64({ alg: 'RS256' })}.${b64(claims)}.sig`;

const NOW = 1_800_000_000;
const EXPECTED = { issuer: 'https://id.example', clientId: 'gatehouse-console', nonce: 'n-1', now: NOW };
const GOOD = {
  iss: 'https://id.example',
  aud: 'gatehouse-console',
  sub: 'u-1',
  exp: NOW + 300,
  nonce: 'n-1',
  acr: 'mfa',
  amr: ['pwd', 'otp', 'mfa'],
  auth_time: NOW - 10,
};

describe("the console's check of its ID token (OIDC Core §3.1.3.7)", () => {
  it('accepts a token for the console with two factors (acr mfa, RFC 8176 amr mfa)', () => {
    assert.equal(checkIdToken(jwt(GOOD), EXPECTED).ok, true);
    assert.equal(isMultiFactor({ amr: ['hwk', 'user', 'mfa'] }), true);
  });

  it('refuses a one-factor sign-in as "second-factor": the console asked acr_values=mfa', () => {
    assert.deepEqual(checkIdToken(jwt({ ...GOOD, acr: 'sfa', amr: ['pwd'] }), EXPECTED), {
      ok: false,
      reason: 'second-factor',
    });
  });

  it('refuses another issuer, audience or nonce, an expired token, or no token at all (§3.1.3.7 points 2, 3, 9, 11)', () => {
    for (const claims of [
      { ...GOOD, iss: 'https://evil.example' },
      { ...GOOD, aud: 'another-client' },
      { ...GOOD, nonce: 'n-2' },
      { ...GOOD, exp: NOW },
    ])
      assert.deepEqual(checkIdToken(jwt(claims), EXPECTED), { ok: false, reason: 'invalid' });
    assert.deepEqual(checkIdToken(undefined, EXPECTED), { ok: false, reason: 'invalid' });
    assert.deepEqual(checkIdToken('not a jwt', EXPECTED), { ok: false, reason: 'invalid' });
  });

  it('with max_age, refuses a sign-in older than asked (OIDC Core §3.1.2.1 auth_time)', () => {
    assert.equal(checkIdToken(jwt(GOOD), { ...EXPECTED, maxAge: 60 }).ok, true);
    assert.deepEqual(checkIdToken(jwt({ ...GOOD, auth_time: NOW - 600 }), { ...EXPECTED, maxAge: 60 }), {
      ok: false,
      reason: 'not-fresh',
    });
  });
});

describe("the console's catalogs", () => {
  it('every locale has exactly the source catalog ids, each a valid ICU message with the same arguments', () => {
    const argumentsOf = (message: string): string[] =>
      [...new Set([...message.matchAll(/\{(\w+)/g)].map((m) => m[1] as string))].sort();
    assert.deepEqual(Object.keys(CATALOGS).sort(), ['ar', 'de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'zh-CN']);
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      assert.deepEqual(Object.keys(catalog).sort(), Object.keys(en).sort(), locale);
      for (const [id, message] of Object.entries(catalog)) {
        assert.doesNotThrow(() => parse(message, { ignoreTag: true }), `${locale} ${id}`);
        assert.deepEqual(argumentsOf(message), argumentsOf(en[id as keyof typeof en]), `${locale} ${id}`);
      }
    }
  });

  it('no locale copies the English text (names of roles and products aside)', () => {
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      if (locale === 'en') continue;
      const copied = Object.entries(catalog).filter(
        ([id, message]) =>
          message === en[id as keyof typeof en] &&
          ![
            'table.client',
            'common.no',
            'roles.holder.client',
            'nav.roles',
            'roles.title',
            'users.name',
            'user.details',
            'clients.name',
            'clients.type',
            'clients.public',
            'groups.name',
            'roles.name',
            'roles.api',
            'roles.description',
            'organizations.name',
            'organizations.id',
            'organizations.caption',
            'organizations.title',
            'nav.organizations',
            'organizations.second-factor.optional',
          ].includes(id),
      );
      assert.deepEqual(copied, [], locale);
    }
  });

  it('formats arguments and plurals in the locale (Arabic has six plural forms)', () => {
    assert.equal(consoleText('en').t('dashboard.keys.count', { count: 1 }), '1 key published');
    assert.equal(consoleText('en').t('dashboard.keys.count', { count: 3 }), '3 keys published');
    assert.equal(consoleText('ar').t('dashboard.keys.count', { count: 2 }), 'مفتاحان منشوران');
    assert.equal(consoleText('de').t('console.signed-in-as', { name: 'alice' }), 'Angemeldet als alice');
    assert.equal(consoleText('ar').dir, 'rtl');
    assert.equal(formatMessage('{n, plural, =0 {none} other {# left}}', 'en', { n: 0 }), 'none');
  });

  it("chooses the browser's first language it speaks, by language when the region differs", () => {
    assert.equal(chooseLocale(['fr-CA', 'en']), 'fr');
    assert.equal(chooseLocale(['pt-PT']), 'pt-BR');
    assert.equal(chooseLocale(['zh-Hans-CN']), 'zh-CN');
    assert.equal(chooseLocale(['nl', 'ja']), 'ja');
    assert.equal(chooseLocale(['nl']), 'en');
  });
});

describe("the console's session", () => {
  it('refreshes once for concurrent callers: a single-use refresh token is never sent twice (RFC 9700 §4.14.2)', async () => {
    const { Session } = await import('../src/session.js');
    const { DpopKey } = await import('@gatehouse/client');
    const issuer = 'https://id.example';
    const sent: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (url.includes('/.well-known/'))
        return Response.json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
        });
      sent.push(new URLSearchParams(typeof init?.body === 'string' ? init.body : '').get('refresh_token') ?? '');
      await new Promise((resolve) => setImmediate(resolve));
      return Response.json({
        access_token: `at-${sent.length}`,
        token_type: 'DPoP',
        expires_in: 300,
        refresh_token: `rt-${sent.length}`,
      });
    };
    try {
      const session = new Session({
        issuer,
        clientId: 'gatehouse-console',
        scope: 'openid',
        home: `${issuer}/console`,
        redirectUri: `${issuer}/console/callback`,
        postLogoutRedirectUri: `${issuer}/console`,
      });
      session.current = {
        claims: { sub: 's', iss: issuer, aud: 'gatehouse-console', exp: 0 },
        idToken: 'x',
        accessToken: 'at-0',
        refreshToken: 'rt-0',
        accessTokenExpiresAt: 0,
        key: await DpopKey.generate(),
      };
      const tokens = await Promise.all([1, 2, 3, 4].map(() => session.accessToken()));
      assert.deepEqual(sent, ['rt-0']);
      assert.deepEqual(tokens, ['at-1', 'at-1', 'at-1', 'at-1']);
      assert.equal(session.current.refreshToken, 'rt-1');
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe("the console's admin API calls", () => {
  it('answers a step-up challenge (RFC 9470 §3 insufficient_user_authentication) with a new sign-in of that max_age, back to the same page', async () => {
    const { AdminApi } = await import('../src/admin.js');
    const issuer = 'https://id.example';
    const asked: { returnTo: string; maxAge?: number }[] = [];
    const session = {
      config: { issuer },
      current: { key: { noteNonce: () => false, proof: async () => 'proof' } },
      accessToken: async () => 'at',
      refresh: async () => 'at',
      pagePath: () => '/clients',
      signIn: (returnTo: string, options: { maxAge?: number } = {}) => {
        asked.push({ returnTo, ...options });
        return Promise.reject(new Error('redirected'));
      },
    };
    const original = globalThis.fetch;
    globalThis.fetch = async () =>
      new Response(JSON.stringify({ type: '/problems/step-up-required', status: 401 }), {
        status: 401,
        headers: {
          'content-type': 'application/problem+json',
          'www-authenticate':
            'DPoP realm="gatehouse", algs="ES256", error="insufficient_user_authentication", ' +
            'error_description="A sign-in within the last 300 seconds is required", max_age="300"',
        },
      });
    try {
      const api = new AdminApi(session as unknown as ConstructorParameters<typeof AdminApi>[0]);
      await assert.rejects(api.request('DELETE', '/clients/shop'), /redirected/);
      assert.deepEqual(asked, [{ returnTo: '/clients', maxAge: 300 }]);
    } finally {
      globalThis.fetch = original;
    }
  });
});
