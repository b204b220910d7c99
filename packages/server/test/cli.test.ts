import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli/run.js';
import { startServer, type RunningServer } from '../src/server.js';
import { ISSUER } from './_oauth-assertions.js';
import { childEnv, runInGroup } from './_processes.js';
import { postForm } from './_server.js';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

describe('the gatehouse operator CLI', () => {
  let dir: string;
  let databaseUrl: string;
  /** A server on the CLI's database file, running while the commands change it. */
  let server: RunningServer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
    databaseUrl = `sqlite:${join(dir, 'x.db')}`;
    server = await startServer({ databaseUrl, issuer: ISSUER, port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]): Promise<CliRun> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: databaseUrl, ISSUER },
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** Runs a command that must succeed and returns its JSON output. */
  async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
    const run = await cli(...argv);
    assert.equal(run.code, 0, `exit code of ${argv.join(' ')}: ${run.err}`);
    return JSON.parse(run.out) as Record<string, unknown>;
  }

  it('clients add prints the client as JSON with its client_id and its secret, shown only this once', async () => {
    const client = await cliJson(
      'clients',
      'add',
      '--id',
      'svc',
      '--name',
      'Service',
      '--scope',
      'a b',
      '--rotation-limit',
      '2',
      '--refresh-ttl',
      '1h',
    );
    assert.equal(client.client_id, 'svc');
    assert.equal(client.name, 'Service');
    assert.equal(client.type, 'confidential');
    assert.equal(client.scope, 'a b');
    assert.equal(client.rotation_limit, 2);
    assert.equal(client.refresh_token_ttl, 3600);
    assert.equal(typeof client.client_secret, 'string');
    assert.ok((client.client_secret as string).length >= 32);
  });

  it('clients list prints JSON without any secret or digest', async () => {
    const added = await cliJson('clients', 'add', '--id', 'listed', '--name', 'Listed');
    const run = await cli('clients', 'list');
    assert.equal(run.code, 0);
    const clients = JSON.parse(run.out) as Array<Record<string, unknown>>;
    const listed = clients.find((c) => c.client_id === 'listed');
    assert.ok(listed, 'the new client is listed');
    assert.equal(listed.type, 'confidential');
    for (const c of clients)
      assert.deepEqual(
        Object.keys(c).filter((k) => /secret|digest/i.test(k)),
        [],
      );
    assert.equal(run.out.includes(added.client_secret as string), false);
    assert.doesNotMatch(run.out, /\b[0-9a-f]{64}\b/, 'no SHA-256 digest is printed');
  });

  it('clients add with an id that exists exits 1 with a JSON error', async () => {
    await cliJson('clients', 'add', '--id', 'twice', '--name', 'Twice');
    const run = await cli('clients', 'add', '--id', 'twice', '--name', 'Twice again');
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    assert.deepEqual(JSON.parse(run.err), { error: 'refused', message: "client 'twice' already exists" });
  });

  it('clients add --public registers a public client without a secret', async () => {
    const client = await cliJson(
      'clients',
      'add',
      '--id',
      'spa',
      '--name',
      'SPA',
      '--public',
      '--scope',
      'contacts:read',
      '--redirect-uri',
      'http://127.0.0.1:8765/callback',
    );
    assert.equal(client.type, 'public');
    assert.equal('client_secret' in client, false);
  });

  it('clients add --replay-window 30s sets the window, clients list shows it, and past 300s is refused', async () => {
    const added = await cliJson('clients', 'add', '--id', 'tabs', '--name', 'Tabs', '--replay-window', '30s');
    assert.equal(added.replay_window, 30);
    const clients = (await cliJson('clients', 'list')) as unknown as Array<{
      client_id: string;
      replay_window: number;
    }>;
    assert.equal(clients.find((c) => c.client_id === 'tabs')?.replay_window, 30);
    assert.equal(clients.find((c) => c.client_id === 'spa')?.replay_window, 0, 'off by default');
    const run = await cli('clients', 'add', '--id', 'too-long', '--name', 'Too long', '--replay-window', '301s');
    assert.equal(run.code, 1);
    assert.deepEqual(JSON.parse(run.err), { error: 'refused', message: 'replay window must be from 0s to 300s' });
  });

  it('clients add/update --exchange-refresh-tokens on|off sets the token exchange policy (RFC 8693 §2.1), shown by clients show', async () => {
    const added = await cliJson(
      'clients',
      'add',
      '--id',
      'exchanger',
      '--name',
      'Exchanger',
      '--exchange-refresh-tokens',
      'on',
    );
    assert.equal((added.token_exchange as Record<string, unknown>).refresh_tokens, true);
    const shown = await cliJson('clients', 'show', 'exchanger');
    assert.equal((shown.token_exchange as Record<string, unknown>).refresh_tokens, true);
    await cliJson('clients', 'update', 'exchanger', '--exchange-refresh-tokens', 'off');
    const after = await cliJson('clients', 'show', 'exchanger');
    assert.equal((after.token_exchange as Record<string, unknown>).refresh_tokens, false);
    const plain = await cliJson('clients', 'add', '--id', 'plain-exchanger', '--name', 'Plain');
    assert.equal((plain.token_exchange as Record<string, unknown>).refresh_tokens, false, 'off by default');
  });

  it('a malformed duration (--refresh-ttl 5x) is a usage error: exit 2 and nothing registered', async () => {
    const run = await cli('clients', 'add', '--id', 'bad-ttl', '--name', 'Bad', '--refresh-ttl', '5x');
    assert.equal(run.code, 2);
    assert.equal((JSON.parse(run.err.split('\n')[0] as string) as { error: string }).error, 'usage');
    const clients = (await cliJson('clients', 'list')) as unknown as Array<{ client_id: string }>;
    assert.equal(
      clients.some((c) => c.client_id === 'bad-ttl'),
      false,
    );
  });

  it('grants issue prints an access token, a refresh token and the grant id', async () => {
    await cliJson('clients', 'add', '--id', 'issuer-svc', '--name', 'Issuer', '--scope', 'a b');
    await cliJson('users', 'add', '--username', 'alice');
    const grant = await cliJson('grants', 'issue', '--client', 'issuer-svc', '--user', 'alice', '--scope', 'a');
    assert.equal(typeof grant.access_token, 'string');
    assert.equal(typeof grant.refresh_token, 'string');
    assert.equal(typeof grant.grant_id, 'string');
    assert.equal(grant.token_type, 'Bearer');
    assert.equal(grant.scope, 'a');
  });

  it('after grants revoke, a server on the same database refuses the grant\'s refresh token with invalid_grant "refresh token has been revoked"', async () => {
    const client = await cliJson('clients', 'add', '--id', 'revoked-svc', '--name', 'Revoked', '--scope', 'a b');
    const grant = await cliJson('grants', 'issue', '--client', 'revoked-svc', '--user', 'alice', '--scope', 'a');
    const revoked = await cliJson('grants', 'revoke', grant.grant_id as string);
    assert.deepEqual(revoked, { grant_id: grant.grant_id, revoked: true, already_revoked: false });
    const as = { id: 'revoked-svc', secret: client.client_secret as string };
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await postForm(
        `${server.url}/token`,
        { grant_type: 'refresh_token', refresh_token: grant.refresh_token as string },
        { as },
      );
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), {
        error: 'invalid_grant',
        error_description: 'refresh token has been revoked',
        error_uri: `${ISSUER}/problems/invalid-grant`,
      });
    }
  });

  it('grant ids as printed can always be passed back as arguments: they never begin with a dash', async () => {
    await cliJson('clients', 'add', '--id', 'many-svc', '--name', 'Many', '--scope', 'a');
    for (let i = 0; i < 40; i++) {
      const grant = await cliJson('grants', 'issue', '--client', 'many-svc', '--user', 'alice', '--scope', 'a');
      assert.match(grant.grant_id as string, /^[0-9a-f]{32}$/);
      assert.equal((await cli('grants', 'revoke', grant.grant_id as string)).code, 0);
    }
  });

  it('grants issue for a user that does not exist is refused (exit 1, not_found), naming client credentials for service accounts; nothing is issued', async () => {
    await cliJson('clients', 'add', '--id', 'nobody-svc', '--name', 'Nobody', '--scope', 'a');
    const run = await cli('grants', 'issue', '--client', 'nobody-svc', '--user', 'nobody', '--scope', 'a');
    assert.equal(run.code, 1);
    assert.equal(run.out, '');
    const refusal = JSON.parse(run.err) as { error: string; message: string };
    assert.equal(refusal.error, 'refused');
    assert.match(refusal.message, /^no user 'nobody': a grant is a user's/);
    assert.match(refusal.message, /client_credentials/);
    assert.deepEqual(await server.context.store.listGrantsPage({ clientId: 'nobody-svc' }, undefined, 10), []);
  });

  it('grants revoke of an unknown grant exits 1 with a JSON error', async () => {
    const run = await cli('grants', 'revoke', 'no-such-grant');
    assert.equal(run.code, 1);
    assert.equal((JSON.parse(run.err) as { error: string }).error, 'refused');
  });

  it('clients remove exits 0, and removing the same client again exits 1', async () => {
    await cliJson('clients', 'add', '--id', 'removable', '--name', 'Removable');
    const first = await cli('clients', 'remove', 'removable');
    assert.equal(first.code, 0);
    assert.deepEqual(JSON.parse(first.out), { client_id: 'removable', removed: true });
    const again = await cli('clients', 'remove', 'removable');
    assert.equal(again.code, 1);
    assert.deepEqual(JSON.parse(again.out), { client_id: 'removable', removed: false });
  });

  it('the built bin, run as `npx gatehouse clients list` from the repository root on an empty database, exits 0 and prints []', async () => {
    const spawned = `sqlite:${join(dir, 'spawned.db')}`;
    // Only serve and migrate create a database.
    assert.equal(await runCli(['migrate'], { DATABASE_URL: spawned }, { out: () => {}, err: () => {} }), 0);
    // The real bin, not the test runner's TypeScript loader (childEnv).
    const env = childEnv({ DATABASE_URL: spawned });
    const ran = await runInGroup('npx', ['gatehouse', 'clients', 'list'], { cwd: REPO_ROOT, env });
    assert.equal(ran.code, 0, ran.err);
    assert.equal(ran.out.trim(), '[]');
  });
});
