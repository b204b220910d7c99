import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { EXIT_CODES, FileTokenStore, runLoginCli, type CliIo } from '@gatehouse/client/node';
import { UserAgent } from './_browser.js';
import { grantIdOf, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { isRefresh } from './_proxy.js';
import { runInGroup } from '../../server/test/_processes.js';
import { until } from '../../server/test/_until.js';

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

function ioFor(configDir: string): CliIo & { readonly lines: { out: string[]; err: string[] } } {
  const lines = { out: [] as string[], err: [] as string[] };
  return {
    lines,
    out: (t) => lines.out.push(t),
    err: (t) => lines.err.push(t),
    env: { GATEHOUSE_CONFIG_DIR: configDir },
    retry: { baseDelayMs: 1 },
  };
}

async function run(configDir: string, ...args: string[]): Promise<Run> {
  const io = ioFor(configDir);
  const code = await runLoginCli(args, io);
  return { code, out: io.lines.out.join('\n'), err: io.lines.err.join('\n') };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('gatehouse-login', () => {
  let gatehouse: Gatehouse;
  let configDir: string;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    // RFC 8252 §7.3: registered without a port, the loopback redirect matches the free port login picks.
    // An access token shorter than the 30 s refresh skew makes every `token` refresh.
    await gatehouse.addClient({
      id: 'cli',
      public: true,
      redirectUris: ['http://127.0.0.1/callback'],
      accessTokenTtl: 20,
    });
    configDir = join(mkdtempSync(join(tmpdir(), 'gatehouse-login-')), 'gatehouse');
  });
  after(async () => {
    await gatehouse.close();
    rmSync(join(configDir, '..'), { recursive: true, force: true });
  });

  interface LoginRun extends Run {
    /** The page the browser landed on at the loopback redirect URI. */
    readonly landing: { readonly status: number; readonly html: string };
    /** Whether the code had been exchanged (a 200 from /token) when the landing page arrived. */
    readonly exchangedBeforeLanding: boolean;
  }

  /** Runs `login`, plays the user at the printed URL, and lets the browser land on the loopback listener. */
  async function login({
    decision = 'allow',
    fetch: fetchFn,
    clientId = 'cli',
  }: { decision?: string; fetch?: CliIo['fetch']; clientId?: string } = {}): Promise<LoginRun> {
    const io = { ...ioFor(configDir), ...(fetchFn ? { fetch: fetchFn } : {}) };
    const running = runLoginCli(
      ['login', '--issuer', gatehouse.issuer, '--client-id', clientId, '--scope', 'contacts:read contacts:write'],
      io,
    );
    await until(
      () => io.lines.out.length > 0,
      () => `the CLI prints the URL: ${io.lines.err.join('\n')}`,
    );
    const mark = gatehouse.proxy.exchanges.length;
    const callback = await new UserAgent().authorize(io.lines.out[0] ?? '', { decision });
    assert.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const answer = await fetch(callback);
    const exchangedBeforeLanding = gatehouse.proxy.exchanges
      .slice(mark)
      .some((e) => e.form?.grant_type === 'authorization_code' && e.status === 200);
    const landing = { status: answer.status, html: await answer.text() };
    return {
      code: await running,
      out: io.lines.out.join('\n'),
      err: io.lines.err.join('\n'),
      landing,
      exchangedBeforeLanding,
    };
  }

  test('login: loopback redirect with PKCE, the URL printed, the tokens stored encrypted; the browser is told "Signed in" only after the code exchange', async () => {
    const result = await login();
    assert.equal(result.code, EXIT_CODES.ok, result.err);
    assert.equal(result.landing.status, 200);
    assert.match(result.landing.html, /<h1>Signed in<\/h1>/);
    assert.match(result.landing.html, /return to the terminal/);
    assert.ok(result.exchangedBeforeLanding, 'the page was written after the code exchange');
    const url = new URL(result.out);
    assert.match(url.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(statSync(join(configDir, 'tokens.enc')).mode & 0o777, 0o600);
    assert.equal(statSync(join(configDir, 'token.key')).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(join(configDir, 'tokens.enc'), 'utf8'), /eyJ/, 'no JWT in the clear');
  });

  test('token prints a valid access token, refreshing as needed', async () => {
    const mark = gatehouse.proxy.exchanges.length;
    const first = await run(configDir, 'token');
    assert.equal(first.code, EXIT_CODES.ok, first.err);
    const second = await run(configDir, 'token');
    assert.notEqual(second.out, first.out);
    assert.equal(
      gatehouse.proxy.exchanges.slice(mark).filter(isRefresh).length,
      2,
      'each run refreshed a 20-second token once',
    );
    const answer = await fetch(`${gatehouse.apiBase}/contacts`, { headers: { authorization: `Bearer ${second.out}` } });
    assert.equal(answer.status, 200);
  });

  test('on invalid_grant, token says to log in again and exits 3, and never presents the refused token again', async () => {
    const current = await run(configDir, 'token');
    await gatehouse.revokeGrant(grantIdOf(current.out));
    const mark = gatehouse.proxy.exchanges.length;
    const refused = await run(configDir, 'token');
    assert.equal(refused.code, EXIT_CODES.reauthenticate);
    assert.equal(refused.out, '');
    assert.match(refused.err, /refresh token has been revoked/);
    assert.ok(
      refused.err.includes(
        `Log in again: gatehouse-login login --issuer ${gatehouse.issuer} --client-id cli --scope 'contacts:read contacts:write'`,
      ),
      refused.err,
    );
    assert.deepEqual(
      gatehouse.proxy.exchanges
        .slice(mark)
        .filter(isRefresh)
        .map((e) => e.status),
      [400],
    );
    assert.equal((await run(configDir, 'token')).code, EXIT_CODES.reauthenticate);
    assert.equal(gatehouse.proxy.exchanges.slice(mark).filter(isRefresh).length, 1);

    assert.equal((await login()).code, EXIT_CODES.ok, 'logging in again restores access');
    assert.equal((await run(configDir, 'token')).code, EXIT_CODES.ok);
  });

  test('login while logged in revokes the previous grant (RFC 7009) instead of orphaning it', async () => {
    const before = (await run(configDir, 'token')).out;
    const again = await login();
    assert.equal(again.code, EXIT_CODES.ok, again.err);
    assert.match(again.err, /previous sign-in to .* was revoked/);
    assert.ok((await gatehouse.grant(grantIdOf(before))).revokedAt !== null, 'the previous grant is revoked');
    const after = await run(configDir, 'token');
    assert.equal(after.code, EXIT_CODES.ok, after.err);
    assert.notEqual(grantIdOf(after.out), grantIdOf(before));
    assert.equal((await gatehouse.grant(grantIdOf(after.out))).revokedAt, null);
  });

  test('after Deny the browser is told the sign-in was refused; login exits 1 and the previous sign-in stands', async () => {
    const before = (await run(configDir, 'token')).out;
    // Another application, which the user has not allowed yet: the consent page is shown.
    await gatehouse.addClient({ id: 'other-cli', public: true, redirectUris: ['http://127.0.0.1/callback'] });
    const denied = await login({ decision: 'deny', clientId: 'other-cli' });
    assert.equal(denied.code, EXIT_CODES.error);
    assert.match(denied.err, /access_denied/);
    assert.equal(denied.landing.status, 403);
    assert.match(denied.landing.html, /<h1>Sign-in refused<\/h1>/);
    assert.doesNotMatch(denied.landing.html, /Signed in</);
    assert.equal((await gatehouse.grant(grantIdOf(before))).revokedAt, null);
  });

  test('a client not registered for a loopback redirect (RFC 8252 §7.3) is refused at once (exit 4), no URL shown, the previous sign-in kept', async () => {
    const before = (await run(configDir, 'token')).out;
    await gatehouse.addClient({ id: 'web-only', public: true, redirectUris: ['http://localhost:8080/callback'] });
    // A short --timeout: a login that waited for the browser would end with exit 1, not 4.
    for (const clientId of ['web-only', 'no-such-client']) {
      const refused = await run(
        configDir,
        'login',
        '--issuer',
        gatehouse.issuer,
        '--client-id',
        clientId,
        '--timeout',
        '5',
      );
      assert.equal(refused.code, EXIT_CODES.configuration, refused.err);
      assert.equal(refused.out, '', 'no authorization URL to open');
      assert.match(refused.err, /refused the authorization request itself \(HTTP 400\)/);
      assert.match(
        refused.err,
        new RegExp(`the client '${clientId}' is unknown there, or is not registered for a loopback`),
      );
      assert.match(refused.err, /RFC 8252 §7\.3.*http:\/\/127\.0\.0\.1\/callback/);
    }
    assert.equal((await run(configDir, 'token')).code, EXIT_CODES.ok, 'still signed in');
    assert.equal((await gatehouse.grant(grantIdOf(before))).revokedAt, null);
  });

  test('a failed code exchange is shown as a failure in the browser, in the look of the server pages', async () => {
    // The code is altered on its way to the token endpoint: the real server refuses it.
    const corrupting: CliIo['fetch'] = (input, init) =>
      fetch(
        input,
        typeof init?.body === 'string' ? { ...init, body: init.body.replace(/(^|&)code=[^&]+/, '$1code=spent') } : init,
      );
    const failed = await login({ fetch: corrupting });
    assert.equal(failed.code, EXIT_CODES.error);
    assert.equal(failed.landing.status, 400);
    assert.match(failed.landing.html, /<h1>Sign-in failed<\/h1>/);
    assert.match(failed.landing.html, /authorization code is invalid/);
    assert.ok(!failed.exchangedBeforeLanding);
    // The server's look: its card, colours and shield, under a CSP that allows only this page's style.
    assert.match(failed.landing.html, /class="card"/);
    assert.match(failed.landing.html, /--accent: #2f5bd8/);
  });

  test('login --device prints the code and URL and polls, at the interval and 5 s slower after slow_down (RFC 8628 §3.5)', async () => {
    await gatehouse.addClient({
      id: 'tv',
      public: true,
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
    });
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-login-'));
    try {
      const sleeps: number[] = [];
      // Settled once the user has approved: made before the CLI runs, since the CLI may reach its
      // third sleep before the test has read the code (it then waits here, not on a settled promise).
      let approve: (approval: Promise<unknown>) => void = () => undefined;
      const approved = new Promise<unknown>((resolve) => (approve = resolve));
      const io = {
        ...ioFor(dir),
        // The second poll is sent at once (too fast: slow_down); the others after the time asked for.
        sleep: async (ms: number) => {
          sleeps.push(ms);
          if (sleeps.length !== 2) gatehouse.clock.advance(ms / 1000);
          if (sleeps.length === 3) await approved;
        },
      };
      const running = runLoginCli(['login', '--device', '--issuer', gatehouse.issuer, '--client-id', 'tv'], io);
      await until(
        () => io.lines.out.length > 0,
        () => `the CLI prints the URL: ${io.lines.err.join('\n')}`,
      );
      const userCode = /enter the code: ([A-Z]{4}-[A-Z]{4})/.exec(io.lines.err.join('\n'))?.[1];
      assert.ok(userCode, io.lines.err.join('\n'));
      assert.equal(io.lines.out[0], `${gatehouse.issuer}/device?user_code=${userCode}`);
      assert.ok(io.lines.err.some((line) => line.includes(`open ${gatehouse.issuer}/device`)));
      approve(new UserAgent().approveDevice(`${gatehouse.issuer}/device`, userCode));
      const code = await running;
      assert.equal(code, EXIT_CODES.ok, io.lines.err.join('\n'));
      assert.deepEqual(sleeps, [5000, 5000, 10000]);
      const polls = gatehouse.proxy.exchanges.filter((e) => e.form?.device_code !== undefined);
      assert.deepEqual(
        polls.map((e) => e.status),
        [400, 400, 200],
      );
      const token = await run(dir, 'token');
      assert.equal(token.code, EXIT_CODES.ok, token.err);
      const answer = await fetch(`${gatehouse.apiBase}/contacts`, {
        headers: { authorization: `Bearer ${token.out}` },
      });
      assert.equal(answer.status, 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('logout revokes the grant at the server and removes the local files', async () => {
    const token = (await run(configDir, 'token')).out;
    const result = await run(configDir, 'logout');
    assert.equal(result.code, EXIT_CODES.ok, result.err);
    assert.ok((await gatehouse.grant(grantIdOf(token))).revokedAt !== null);
    assert.ok(!existsSync(join(configDir, 'tokens.enc')) && !existsSync(join(configDir, 'login.json')));
    assert.equal((await run(configDir, 'token')).code, EXIT_CODES.reauthenticate);
  });

  test('invalid_client is a configuration error (exit 4), an unreachable server exit 5, bad arguments exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-login-'));
    try {
      const { writeProfile, cliPaths } = await import('../src/cli/profile.js');
      const paths = cliPaths({ GATEHOUSE_CONFIG_DIR: dir });
      const store = await FileTokenStore.open({ path: paths.tokens, keyFile: paths.key, env: {} });
      await store.write({
        tokens: { accessToken: 'x', tokenType: 'Bearer', accessTokenExpiresAt: 0, refreshToken: 'r', obtainedAt: 0 },
      });
      await writeProfile(paths, {
        issuer: gatehouse.issuer,
        client_id: 'no-such-client',
        redirect_uri: 'http://127.0.0.1:1/callback',
      });
      const misconfigured = await run(dir, 'token');
      assert.equal(misconfigured.code, EXIT_CODES.configuration);
      assert.match(misconfigured.err, /invalid_client/);
      assert.equal((await store.read()).tokens?.refreshToken, 'r', 'the tokens were kept');

      await writeProfile(paths, {
        issuer: `http://127.0.0.1:${await freePort()}`,
        client_id: 'cli',
        redirect_uri: 'http://127.0.0.1:1/callback',
      });
      const unreachable = await run(dir, 'token');
      assert.equal(unreachable.code, EXIT_CODES.unreachable);
      assert.match(unreachable.err, /could not reach .* \(4 attempts\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const args of [
      [],
      ['frobnicate'],
      ['login', '--client-id', 'x'],
      ['login', '--issuer', 'http://a', '--client-id', 'x', '--port', 'abc'],
      ['token', '--extra'],
    ]) {
      assert.equal((await run(configDir, ...args)).code, EXIT_CODES.usage, args.join(' '));
    }
  });

  test('the bin runs as a process and exits with the documented codes', async () => {
    const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
    const empty = mkdtempSync(join(tmpdir(), 'gatehouse-login-'));
    try {
      const node = (...args: string[]) =>
        runInGroup(process.execPath, ['--import', 'tsx', '--conditions=@gatehouse/source', main, ...args], {
          env: { ...process.env, GATEHOUSE_CONFIG_DIR: empty },
        });
      const help = await node('--help');
      assert.equal(help.code, 0);
      assert.match(help.out, /Exit codes: 0 ok/);
      const token = await node('token');
      assert.equal(token.code, EXIT_CODES.reauthenticate);
      assert.match(token.err, /Not logged in/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
