import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMAND_DECLARATIONS } from '../src/cli/run.js';
import { startServer, type RunningServer } from '../src/server.js';
import { runCliCaptured, runNodeScript, type CliRun } from './_cli.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { postForm } from './_server.js';

const BUILT_CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

/** The operator's daily commands: grants list, users disable|enable, clients show|update|rotate-secret. */
for (const dialect of DIALECTS)
  describe(`the gatehouse CLI's daily operations (${dialect})`, () => {
    let database: { readonly url: string; drop(): Promise<void> };
    /** A server on the CLI's database, answering /token while the commands change the data. */
    let server: RunningServer;

    before(async () => {
      database = await freshDatabase(dialect);
      server = await startServer({ databaseUrl: database.url, issuer: ISSUER, port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    const cli = (...argv: string[]): Promise<CliRun> => runCliCaptured(argv, { DATABASE_URL: database.url, ISSUER });
    async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
      const run = await cli(...argv);
      assert.equal(run.code, 0, `exit code of ${argv.join(' ')}: ${run.err}`);
      return JSON.parse(run.out) as Record<string, unknown>;
    }
    const refreshWith = (client: { id: string; secret: string }, refreshToken: string): Promise<Response> =>
      postForm(`${server.url}/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, { as: client });

    it('grants list shows id, client, username and subject, scope, created, last rotation and state; --user and --client filter', async () => {
      const added = await cliJson('clients', 'add', '--id', 'list-svc', '--name', 'List', '--scope', 'a b');
      await cliJson('clients', 'add', '--id', 'other-svc', '--name', 'Other', '--scope', 'a');
      const client = { id: 'list-svc', secret: added.client_secret as string };
      // Grants are of existing users, named by their subject (one subject per user).
      const ann = await cliJson('users', 'add', '--username', 'ann');
      await cliJson('users', 'add', '--username', 'bob');
      const kept = await cliJson('grants', 'issue', '--client', 'list-svc', '--user', 'ann', '--scope', 'a b');
      const revoked = await cliJson('grants', 'issue', '--client', 'list-svc', '--user', 'bob', '--scope', 'a');
      await cliJson('grants', 'issue', '--client', 'other-svc', '--user', 'ann', '--scope', 'a');
      await cliJson('grants', 'revoke', revoked.grant_id as string);
      assert.equal((await refreshWith(client, kept.refresh_token as string)).status, 200);

      const ofClient = (await cliJson('grants', 'list', '--client', 'list-svc')) as unknown as Record<
        string,
        unknown
      >[];
      assert.deepEqual(ofClient.map((g) => g.grant_id).sort(), [kept.grant_id, revoked.grant_id].sort());
      const row = ofClient.find((g) => g.grant_id === kept.grant_id) as Record<string, unknown>;
      assert.deepEqual(Object.keys(row), [
        'grant_id',
        'client_id',
        'username',
        'subject',
        'scope',
        'created_at',
        'last_rotated_at',
        'state',
      ]);
      assert.deepEqual(
        [row.client_id, row.username, row.subject, row.scope, row.state],
        ['list-svc', 'ann', ann.subject, 'a b', 'active'],
      );
      assert.ok(!Number.isNaN(Date.parse(row.created_at as string)));
      assert.ok(!Number.isNaN(Date.parse(row.last_rotated_at as string)), 'the refresh rotated the family');
      assert.equal(ofClient.find((g) => g.grant_id === revoked.grant_id)?.state, 'revoked');
      assert.equal(ofClient.find((g) => g.grant_id === revoked.grant_id)?.last_rotated_at, null);

      const ofAnn = (await cliJson('grants', 'list', '--user', 'ann')) as unknown as Record<string, unknown>[];
      assert.deepEqual(ofAnn.map((g) => g.client_id).sort(), ['list-svc', 'other-svc']);
      assert.deepEqual(
        new Set(ofAnn.map((g) => `${String(g.username)} ${String(g.subject)}`)),
        new Set([`ann ${ann.subject as string}`]),
      );
      const both = (await cliJson('grants', 'list', '--user', 'ann', '--client', 'other-svc')) as unknown as unknown[];
      assert.equal(both.length, 1);
      const all = (await cliJson('grants', 'list')) as unknown as unknown[];
      assert.ok(all.length >= 3);
    });

    it('users disable revokes every grant the user gave (their refresh token: invalid_grant), users enable lets them sign in again', async () => {
      const added = await cliJson('clients', 'add', '--id', 'disable-svc', '--name', 'Disable', '--scope', 'a');
      const carol = await cliJson('users', 'add', '--username', 'carol');
      const grant = await cliJson('grants', 'issue', '--client', 'disable-svc', '--user', 'carol', '--scope', 'a');

      const disabled = await cliJson('users', 'disable', 'Carol');
      assert.equal(disabled.username, 'carol');
      assert.equal(typeof disabled.disabled_at, 'string');
      const response = await refreshWith(
        { id: 'disable-svc', secret: added.client_secret as string },
        grant.refresh_token as string,
      );
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_grant');
      const grants = (await cliJson('grants', 'list', '--user', 'carol')) as unknown as Record<string, unknown>[];
      assert.deepEqual(
        grants.map((g) => g.state),
        ['revoked'],
      );

      const enabled = await cliJson('users', 'enable', 'carol');
      assert.equal(enabled.disabled_at, undefined);
      const events = (await cliJson('audit', '--event', 'user_disabled')) as unknown as Record<string, unknown>[];
      assert.deepEqual(
        events.map((e) => [e.subject, e.actor]),
        [[carol.subject, 'cli']],
      );
      assert.equal((await cli('users', 'disable', 'nobody')).code, 1);
    });

    it('clients show prints one client without its secret; an unknown id exits 1', async () => {
      await cliJson('clients', 'add', '--id', 'show-svc', '--name', 'Show', '--scope', 'a');
      const shown = await cliJson('clients', 'show', 'show-svc');
      assert.equal(shown.client_id, 'show-svc');
      assert.equal(shown.name, 'Show');
      assert.deepEqual(
        Object.keys(shown).filter((k) => /secret|digest/i.test(k)),
        [],
      );
      const unknown = await cli('clients', 'show', 'no-such-client');
      assert.equal(unknown.code, 1);
      assert.equal((JSON.parse(unknown.err) as { error: string }).error, 'refused');
    });

    it('clients update changes only the settings given, checked as clients add checks them (a bad redirect URI changes nothing)', async () => {
      await cliJson(
        'clients',
        'add',
        '--id',
        'update-svc',
        '--name',
        'Update',
        '--scope',
        'a b',
        '--redirect-uri',
        'https://app.example/one',
        '--rotation-limit',
        '2',
      );
      const updated = await cliJson(
        'clients',
        'update',
        'update-svc',
        '--name',
        'Updated',
        '--redirect-uri',
        'https://app.example/two',
        '--redirect-uri',
        'https://app.example/three',
        '--access-ttl',
        '10m',
      );
      assert.equal(updated.name, 'Updated');
      assert.deepEqual(updated.redirect_uris, ['https://app.example/two', 'https://app.example/three']);
      assert.equal(updated.access_token_ttl, 600);
      assert.equal(updated.scope, 'a b', 'a setting not given stays');
      assert.equal(updated.rotation_limit, 2);
      assert.equal(updated.type, 'confidential');

      // RFC 6749 §3.1.2: absolute, no fragment; refused as clients add refuses it, and nothing changes.
      const refused = await cli('clients', 'update', 'update-svc', '--redirect-uri', 'https://app.example/#frag');
      assert.equal(refused.code, 1);
      assert.equal((JSON.parse(refused.err) as { error: string }).error, 'refused');
      assert.deepEqual((await cliJson('clients', 'show', 'update-svc')).redirect_uris, updated.redirect_uris);
      assert.equal((await cli('clients', 'update', 'no-such-client', '--name', 'x')).code, 1);
    });

    it('clients rotate-secret prints a new secret once; the old one stops working at /token; the rotation is audited', async () => {
      const added = await cliJson('clients', 'add', '--id', 'rotate-svc', '--name', 'Rotate', '--scope', 'a');
      const rotated = await cliJson('clients', 'rotate-secret', 'rotate-svc');
      assert.equal(rotated.client_id, 'rotate-svc');
      assert.equal(typeof rotated.client_secret, 'string');
      assert.notEqual(rotated.client_secret, added.client_secret);
      const token = (secret: string): Promise<Response> =>
        postForm(
          `${server.url}/token`,
          { grant_type: 'client_credentials', scope: 'a' },
          { as: { id: 'rotate-svc', secret } },
        );
      const old = await token(added.client_secret as string);
      assert.equal(old.status, 401);
      assert.equal(((await old.json()) as { error: string }).error, 'invalid_client');
      assert.equal((await token(rotated.client_secret as string)).status, 200);
      const events = (await cliJson('audit', '--event', 'client_secret_rotated')) as unknown as Record<
        string,
        unknown
      >[];
      assert.deepEqual(
        events.map((e) => [e.client_id, e.actor]),
        [['rotate-svc', 'cli']],
      );
      assert.deepEqual(
        Object.keys(await cliJson('clients', 'show', 'rotate-svc')).filter((k) => /secret/.test(k)),
        [],
      );

      await cliJson('clients', 'add', '--id', 'public-app', '--name', 'Public', '--public', '--scope', 'a');
      assert.equal((await cli('clients', 'rotate-secret', 'public-app')).code, 1, 'a public client has no secret');
    });
  });

describe('gatehouse --help', () => {
  const help = (...argv: string[]): Promise<CliRun> => runCliCaptured(argv, {});

  it('every command and subcommand answers --help with exit 0: its synopsis, and every option it parses', async () => {
    for (const declaration of COMMAND_DECLARATIONS) {
      const run = await help(...declaration.name.split(' '), '--help');
      assert.equal(run.code, 0, declaration.name);
      assert.ok(run.out.startsWith(`Usage: gatehouse ${declaration.name}`), run.out);
      for (const option of Object.keys(declaration.options)) assert.match(run.out, new RegExp(`--${option}\\b`));
    }
  });

  it('gatehouse --help names every subcommand, and gatehouse clients --help every clients subcommand', async () => {
    const top = await help('--help');
    for (const declaration of COMMAND_DECLARATIONS)
      assert.ok(top.out.includes(`  ${declaration.name}`), declaration.name);
    const clients = await help('clients', '--help');
    assert.equal(clients.code, 0);
    for (const sub of ['add', 'update', 'list', 'show', 'rotate-secret', 'remove'])
      assert.ok(clients.out.includes(`clients ${sub}`), sub);
  });

  it("an option a subcommand does not declare is a usage error (exit 2) naming that subcommand's --help, not printing it", async () => {
    const run = await help('grants', 'list', '--subject', 'ann');
    assert.equal(run.code, 2);
    assert.deepEqual(JSON.parse(run.err), {
      error: 'usage',
      message: "unknown option '--subject' for grants list",
      help: 'gatehouse grants list --help',
    });
  });

  it('the built bin answers `gatehouse clients rotate-secret --help` without a database', async () => {
    const run = await runNodeScript(BUILT_CLI, ['clients', 'rotate-secret', '--help'], {
      env: { DATABASE_URL: 'sqlite:///nonexistent/folder/x.db' },
    });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /^Usage: gatehouse clients rotate-secret ID/);
  });
});
