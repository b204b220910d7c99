import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

  /** Runs `login`, plays the user at the printed URL, and lets the browser land on the loopback listener. */
  async function login(): Promise<Run> {
    const io = ioFor(configDir);
    const running = runLoginCli(
      ['login', '--issuer', gatehouse.issuer, '--client-id', 'cli', '--scope', 'contacts:read contacts:write'],
      io,
    );
    while (io.lines.out.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const callback = await new UserAgent().authorize(io.lines.out[0] ?? '');
    assert.match(callback, /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    const landing = await fetch(callback);
    assert.equal(landing.status, 200);
    assert.match(await landing.text(), /return to the terminal/);
    return { code: await running, out: io.lines.out.join('\n'), err: io.lines.err.join('\n') };
  }

  test('login: loopback redirect with PKCE, the URL printed, the tokens stored encrypted', async () => {
    const result = await login();
    assert.equal(result.code, EXIT_CODES.ok, result.err);
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

  test('the bin runs as a process and exits with the documented codes', () => {
    const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
    const empty = mkdtempSync(join(tmpdir(), 'gatehouse-login-'));
    try {
      const node = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', '--conditions=@gatehouse/source', main, ...args], {
          env: { ...process.env, GATEHOUSE_CONFIG_DIR: empty },
          encoding: 'utf8',
        });
      const help = node('--help');
      assert.equal(help.status, 0);
      assert.match(help.stdout, /Exit codes: 0 ok/);
      const token = node('token');
      assert.equal(token.status, EXIT_CODES.reauthenticate);
      assert.match(token.stderr, /Not logged in/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
