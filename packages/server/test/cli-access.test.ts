/**
 * `gatehouse groups …` and `gatehouse roles …` against a database a server also serves, on both
 * dialects: the changes reach the next token, every change is audited with the actor `cli`, and
 * mistakes are refused in one line (exit 1) or are usage errors (exit 2).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { startServer, type RunningServer } from '../src/server.js';
import { runCliCaptured, type CliRun } from './_cli.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';

for (const dialect of DIALECTS)
  describe(`gatehouse groups and roles (${dialect})`, () => {
    let database: { readonly url: string; drop(): Promise<void> };
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
    async function cliJson(...argv: string[]): Promise<unknown> {
      const run = await cli(...argv);
      assert.equal(run.code, 0, `exit code of ${argv.join(' ')}: ${run.err}`);
      return JSON.parse(run.out) as unknown;
    }
    async function refused(argv: string[], code: number, message: RegExp): Promise<void> {
      const run = await cli(...argv);
      assert.equal(run.code, code, `exit code of ${argv.join(' ')}: ${run.err}`);
      assert.match(run.err, message);
      assert.equal(run.err.trim().split('\n').length, 1, run.err);
    }

    it('groups add (with a parent), members add, roles add and assign reach the next token of the user', async () => {
      await cliJson('clients', 'add', '--id', 'app', '--name', 'App', '--scope', 'contacts:read');
      await cliJson('users', 'add', '--username', 'erin');
      await cliJson('groups', 'add', 'company');
      assert.deepEqual(await cliJson('groups', 'add', 'sales', '--parent', 'company'), {
        name: 'sales',
        parent: 'company',
        created_at: (JSON.parse((await cli('groups', 'list')).out) as { created_at: string }[])[1]?.created_at,
      });
      assert.deepEqual(await cliJson('groups', 'members', 'add', 'sales', 'erin'), {
        group: 'sales',
        username: 'erin',
        added: true,
        already_member: false,
      });
      assert.deepEqual(await cliJson('groups', 'members', 'list', 'sales'), { group: 'sales', members: ['erin'] });
      await cliJson('roles', 'add', 'reader', '--api', '/v2', '--description', 'reads contacts');
      await cliJson('roles', 'assign', 'reader', '--api', '/v2', '--group', 'company');
      await cliJson('roles', 'add', 'ops', '--server-wide');
      await cliJson('roles', 'assign', 'ops', '--server-wide', '--user', 'erin');
      assert.deepEqual(await cliJson('roles', 'holders', 'reader', '--api', '/v2'), {
        role: 'reader',
        api: '/v2',
        holders: ['group:company'],
      });
      const issued = (await cliJson(
        'grants',
        'issue',
        '--client',
        'app',
        '--user',
        'erin',
        '--scope',
        'contacts:read',
      )) as {
        access_token: string;
      };
      const claims = decodeJwt(issued.access_token);
      assert.deepEqual(claims['roles'], ['ops', 'reader']);
      assert.deepEqual(claims['groups'], ['company', 'sales']);
      const listed = (await cliJson('roles', 'list')) as { name: string; api: string | null; built_in: boolean }[];
      assert.deepEqual(
        listed.map((r) => [r.name, r.api, r.built_in]),
        [
          ['reader', '/v2', false],
          ['admin', null, true],
          ['auditor', null, true],
          ['ops', null, false],
          ['user-manager', null, true],
        ],
      );
    });

    it('every change is audited with the actor cli; members remove and roles unassign take effect at the next token', async () => {
      await cliJson('roles', 'unassign', 'ops', '--server-wide', '--user', 'erin');
      await cliJson('groups', 'members', 'remove', 'sales', 'erin');
      const issued = (await cliJson(
        'grants',
        'issue',
        '--client',
        'app',
        '--user',
        'erin',
        '--scope',
        'contacts:read',
      )) as {
        access_token: string;
      };
      assert.equal(decodeJwt(issued.access_token)['roles'], undefined);
      const events = (await cliJson('audit', '--limit', '100')) as { event: string; actor?: string; reason: string }[];
      const access = events.filter((e) => /^(group|role)_/.test(e.event));
      assert.deepEqual(
        access.map((e) => e.event),
        [
          'group_created',
          'group_created',
          'group_member_added',
          'role_created',
          'role_assigned',
          'role_created',
          'role_assigned',
          'role_unassigned',
          'group_member_removed',
        ],
      );
      assert.ok(access.every((e) => e.actor === 'cli'));
      assert.equal(access[4]?.reason, 'role=reader scope=/v2 group=company');
    });

    it('mistakes are refused in one line: unknown names, duplicates, a built-in role, a group with subgroups', async () => {
      await refused(['groups', 'add', 'company'], 1, /group 'company' already exists/);
      await refused(['groups', 'add', 'bad name'], 1, /group name 'bad name' is not allowed/);
      await refused(['groups', 'remove', 'company'], 1, /group 'company' has subgroups/);
      await refused(['groups', 'members', 'add', 'nowhere', 'erin'], 1, /there is no group 'nowhere'/);
      await refused(['groups', 'members', 'add', 'sales', 'nobody'], 1, /there is no user 'nobody'/);
      await refused(['roles', 'remove', 'admin', '--server-wide'], 1, /role 'admin' is built in/);
      await refused(['roles', 'add', 'x', '--api', 'app'], 1, /client 'app' is not a resource server/);
      await refused(['roles', 'add', 'x', '--api', 'nothing'], 1, /there is no API 'nothing'/);
      await refused(
        ['roles', 'assign', 'reader', '--api', '/v2', '--client', 'app'],
        1,
        /a client holds only server-wide roles/,
      );
      await refused(['roles', 'add', 'x'], 2, /roles add needs --api AUDIENCE or --server-wide/);
      await refused(['roles', 'assign', 'reader', '--api', '/v2'], 2, /needs one of --user, --group and --client/);
    });

    it('groups remove takes its memberships and role assignments with it; roles remove its assignments', async () => {
      await cliJson('groups', 'remove', 'sales');
      await cliJson('roles', 'remove', 'reader', '--api', '/v2');
      assert.deepEqual(
        ((await cliJson('groups', 'list')) as { name: string }[]).map((g) => g.name),
        ['company'],
      );
      await refused(['roles', 'holders', 'reader', '--api', '/v2'], 1, /there is no role 'reader' of \/v2/);
    });
  });
