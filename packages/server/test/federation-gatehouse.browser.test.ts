/**
 * Federation end to end in chromium: a downstream Gatehouse (`gatehouse serve` on 127.0.0.1) whose
 * users sign in at an upstream Gatehouse (another `gatehouse serve` process, on `localhost`: the
 * host names differ so that the two servers' cookies do not mix, as ports do not separate them).
 * The downstream reads its upstream from UPSTREAMS_FILE, its secret from the environment.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { pkce } from './_authorize.js';
import { browserSuiteSkip, launchChromium, startCallbackServer, type CallbackServer } from './_browser.js';
import { runCliCaptured } from './_cli.js';
import { freePort } from './_pg-cluster.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { postForm } from './_server.js';

let skip: string | false = false;
let unavailable: Error | undefined;
try {
  skip = browserSuiteSkip();
} catch (error) {
  unavailable = error as Error;
}

describe('federation with a second Gatehouse as the upstream provider (chromium)', { skip, timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-federation-'));
  let upstream: ServerProcess;
  let downstream: ServerProcess;
  let callback: CallbackServer;
  let browser: Browser;
  let notes: { id: string; secret: string };
  let annPassword: string;
  let carolPassword: string;

  async function cli(env: Record<string, string>, ...argv: string[]): Promise<Record<string, unknown>> {
    const run = await runCliCaptured(argv, env);
    assert.equal(run.code, 0, `${argv.join(' ')}: ${run.err}`);
    return (run.out.trim() === '' ? {} : JSON.parse(run.out)) as Record<string, unknown>;
  }

  before(async () => {
    if (unavailable) return;
    const [upPort, downPort] = [await freePort(), await freePort()];
    const up = { DATABASE_URL: `sqlite:${join(dir, 'upstream.db')}`, ISSUER: `http://localhost:${upPort}` };
    const down = { DATABASE_URL: `sqlite:${join(dir, 'downstream.db')}`, ISSUER: `http://127.0.0.1:${downPort}` };
    await cli(up, 'migrate');
    const registered = await cli(
      up,
      'clients',
      'add',
      '--id',
      'downstream',
      '--name',
      'Downstream Gatehouse',
      '--redirect-uri',
      `${down.ISSUER}/federation/callback`,
      '--scope',
      'openid profile email',
    );
    annPassword = (
      await cli(
        up,
        'users',
        'add',
        '--username',
        'ann',
        '--email',
        'ann@corp.example',
        '--email-verified',
        'true',
        '--name',
        'Ann Example',
      )
    ).password as string;
    await cli(
      up,
      'users',
      'add',
      '--username',
      'carol-at-corp',
      '--email',
      'carol@corp.example',
      '--email-verified',
      'true',
    ).then((u) => (carolPassword = u.password as string));
    await cli(down, 'migrate');
    callback = await startCallbackServer();
    const client = await cli(
      down,
      'clients',
      'add',
      '--id',
      'notes',
      '--name',
      'Notes',
      '--redirect-uri',
      callback.uri,
      '--scope',
      'openid profile email contacts:read',
    );
    notes = { id: 'notes', secret: client.client_secret as string };
    // carol has a local account with the same e-mail: linking it needs her local password.
    await cli(down, 'users', 'add', '--username', 'carol', '--email', 'carol@corp.example');
    const upstreamsFile = join(dir, 'upstreams.json');
    writeFileSync(
      upstreamsFile,
      JSON.stringify({
        upstreams: [
          {
            id: 'corp',
            issuer: up.ISSUER,
            client_id: 'downstream',
            client_secret_env: 'CORP_CLIENT_SECRET',
            display_name: 'Corp',
            domains: ['corp.example'],
          },
          { id: 'down', issuer: 'http://127.0.0.1:9', client_id: 'x', client_secret: 'y', display_name: 'Offline IdP' },
        ],
      }),
    );
    upstream = await spawnServer({ ...up, PORT: String(upPort) });
    downstream = await spawnServer({
      ...down,
      PORT: String(downPort),
      UPSTREAMS_FILE: upstreamsFile,
      CORP_CLIENT_SECRET: registered.client_secret as string,
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await downstream?.stop();
    await upstream?.stop();
    await callback?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  function authorizeUrl(challenge: string, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams({
      ...extra,
      response_type: 'code',
      client_id: notes.id,
      redirect_uri: callback.uri,
      scope: 'openid profile email contacts:read',
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${downstream.url}/authorize?${query}`;
  }

  /** The code at the client's callback exchanged at the downstream; the ID token's claims. */
  async function idTokenAfterCallback(page: Page, verifier: string) {
    await page.waitForURL((url) => url.href.startsWith(callback.uri));
    const code = callback.received.at(-1)?.get('code') ?? assert.fail('a code');
    const response = await postForm(
      `${downstream.url}/token`,
      { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
      { as: notes },
    );
    assert.equal(response.status, 200);
    return decodeJwt(((await response.json()) as { id_token: string }).id_token);
  }

  /** Home-realm discovery by e-mail, the upstream's sign-in and consent, then the downstream's consent. */
  async function signInAtUpstream(page: Page, email: string, username: string, password: string, consent = true) {
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.host.startsWith('localhost:'));
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Consent given once is remembered by the upstream, as by any Gatehouse.
    if (consent) await page.getByRole('button', { name: 'Allow' }).click();
  }

  /** The downstream subject of the local user with this username or e-mail. */
  async function subjectOf(username: string): Promise<string> {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'downstream.db')}` };
    const users = (await runCliCaptured(['users', 'list'], env)).out;
    const user = (JSON.parse(users) as { username: string; subject: string; email?: string }[]).find(
      (u) => u.username === username || u.email === username,
    );
    return user?.subject ?? assert.fail(`no user ${username}`);
  }

  it('a user of the upstream signs in at the downstream by home-realm discovery, consents twice, and the client gets the local sub with amr fed, the same on the next sign-in', async () => {
    if (unavailable) throw unavailable;
    const first = pkce();
    const page = await (await browser.newContext()).newPage();
    await page.goto(authorizeUrl(first.challenge));
    await signInAtUpstream(page, 'ann@corp.example', 'ann', annPassword);
    await page.getByRole('button', { name: 'Allow' }).click();
    const idToken = await idTokenAfterCallback(page, first.verifier);
    assert.ok((idToken.amr as string[]).includes('fed'));
    const local = await subjectOf('ann@corp.example');
    assert.equal(idToken.sub, local);
    // A fresh browser: signed in again at both; the downstream sub is the same.
    const second = pkce();
    const again = await (await browser.newContext()).newPage();
    await again.goto(authorizeUrl(second.challenge));
    await signInAtUpstream(again, 'ann@corp.example', 'ann', annPassword, false);
    assert.equal((await idTokenAfterCallback(again, second.verifier)).sub, local);
  });

  it('prompt=login: back from the upstream, the continue page takes the browser on to the client, which gets its code; a redirect would be blocked under the CSP form-action of the upstream page that submitted (CSP3 §6.3.1.1, OIDC Core §3.1.2.1)', async () => {
    if (unavailable) throw unavailable;
    const { challenge, verifier } = pkce();
    const page = await (await browser.newContext()).newPage();
    await page.goto(authorizeUrl(challenge, { prompt: 'login' }));
    // ann consented at both servers in the first test: both remember it.
    await signInAtUpstream(page, 'ann@corp.example', 'ann', annPassword, false);
    const idToken = await idTokenAfterCallback(page, verifier);
    assert.equal(idToken.sub, await subjectOf('ann@corp.example'));
    assert.ok((idToken.amr as string[]).includes('fed'));
  });

  it('an upstream identity with the e-mail of a local account is linked only after the local password, and the account page can then unlink it', async () => {
    if (unavailable) throw unavailable;
    const { challenge, verifier } = pkce();
    const page = await (await browser.newContext()).newPage();
    await page.goto(authorizeUrl(challenge));
    await signInAtUpstream(page, 'carol@corp.example', 'carol-at-corp', carolPassword);
    await page.waitForURL((url) => url.pathname === '/federation/callback');
    assert.equal(await page.title(), 'Link your account · Gatehouse');
    await page.getByLabel('Password of that account').fill('a wrong password');
    await page.getByRole('button', { name: 'Link and continue' }).click();
    assert.match((await page.locator('.alert').textContent()) ?? '', /Wrong password/);
    // carol's local password was generated by the CLI: set a known one to prove the account.
    const env = { DATABASE_URL: `sqlite:${join(dir, 'downstream.db')}` };
    const passwd = await runCliCaptured(['users', 'passwd', 'carol'], env);
    const carolLocal = (JSON.parse(passwd.out) as { password: string }).password;
    await page.getByLabel('Password of that account').fill(carolLocal);
    await page.getByRole('button', { name: 'Link and continue' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    assert.equal((await idTokenAfterCallback(page, verifier)).sub, await subjectOf('carol'));
    await page.goto(`${downstream.url}/account`);
    assert.match((await page.locator('.linked-providers').textContent()) ?? '', /Corp/);
    await page.getByRole('button', { name: 'Unlink' }).click();
    assert.equal(await page.locator('.linked-providers').count(), 0);
  });

  it('an upstream that is down gives the upstream_unavailable page with a way to try again', async () => {
    if (unavailable) throw unavailable;
    const page = await (await browser.newContext()).newPage();
    await page.goto(authorizeUrl(pkce().challenge));
    await page.getByRole('button', { name: 'Sign in with Offline IdP' }).click();
    assert.equal(await page.title(), 'Your identity provider is not answering · Gatehouse');
    await page.getByRole('link', { name: 'Try again' }).click();
    assert.equal(await page.title(), 'Sign in · Gatehouse');
  });
});
