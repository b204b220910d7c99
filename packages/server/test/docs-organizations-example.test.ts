/**
 * docs/organizations.md's worked example, run as written: each `gatehouse` command of its block
 * through the CLI on a fresh database, with the page's own arguments (the upstream's JSON file made
 * beside it). The organizations, policies, members and client are then the ones the page describes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliCaptured } from './_cli.js';
import { freshDatabase } from './_dialects.js';
import { gatehouseCallsIn, sectionOf, shellBlocks } from './_docs.js';
import { ISSUER } from './_oauth-assertions.js';

const [EXAMPLE] = shellBlocks(sectionOf('docs/organizations.md', 'A worked example: two customer companies'));

describe("docs/organizations.md's worked example, as written", () => {
  let database: { readonly url: string; drop(): Promise<void> };
  let dir: string;
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: database.url, ISSUER });

  async function cli(argv: string[]): Promise<Record<string, unknown>> {
    const run = await runCliCaptured(argv, env());
    assert.equal(run.code, 0, `gatehouse ${argv.join(' ')}: ${run.err}`);
    return JSON.parse(run.out) as Record<string, unknown>;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-organizations-'));
    database = await freshDatabase('sqlite');
    const upstreams = {
      upstreams: [
        {
          id: 'acme-sso',
          issuer: 'https://login.acme.example',
          client_id: 'gatehouse',
          client_secret_env: 'ACME_SSO_SECRET',
        },
      ],
    };
    writeFileSync(join(dir, 'acme-sso.json'), JSON.stringify(upstreams));
    // The file names its secret by an environment variable, read from the CLI's process.
    process.env.ACME_SSO_SECRET = 'secret';
    // The page's server exists already: its database is made as `gatehouse migrate` makes it.
    const migrated = await runCliCaptured(['migrate'], env());
    assert.equal(migrated.code, 0, migrated.err);
  });
  after(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every command of the block succeeds, in order', async () => {
    assert.ok(EXAMPLE !== undefined, 'the page has the block');
    const calls = gatehouseCallsIn(EXAMPLE);
    assert.ok(calls.length >= 9, `${calls.length} calls`);
    for (const call of calls)
      await cli(
        call
          .map((word) => word.replace(/^"(.*)"$/, '$1'))
          .map((word) => (word === 'acme-sso.json' ? join(dir, word) : word)),
      );
  });

  it('the organizations are the ones the page describes', async () => {
    const acme = await cli(['orgs', 'show', 'acme']);
    assert.equal(acme.name, 'Acme Corp');
    assert.deepEqual(acme.policy, {
      second_factor: 'optional',
      sign_in_methods: ['federation'],
      upstream: 'acme-sso',
      default_role: 'member',
    });
    const globex = await cli(['orgs', 'show', 'globex']);
    assert.equal((globex.policy as { second_factor: string }).second_factor, 'required');
    const members = JSON.stringify(await cli(['orgs', 'members', 'list', 'globex']));
    assert.match(members, /"dana"/);
    assert.match(members, /"admin"/);
    const portal = JSON.stringify(await cli(['clients', 'show', 'portal']));
    assert.match(portal, /organization/);
  });
});
