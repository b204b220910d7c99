import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuditTrail } from '../src/audit/audit.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import {
  chooseOrganization,
  isPublicMailDomain,
  joinByVerifiedDomain,
  organizationClaims,
} from '../src/organizations/index.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/store.js';
import { runCliCaptured } from './_cli.js';
import { DIALECTS, freshDatabase } from './_dialects.js';

/** Organizations: the store, the operator's CLI, JIT membership by a verified domain, the choice at /authorize. */
describe('organizations', () => {
  it('public mail domains are known, and so are their subdomains; a company domain is not one', () => {
    for (const domain of ['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com', 'GMX.de', 'mail.yahoo.com'])
      assert.equal(isPublicMailDomain(domain), true, domain);
    for (const domain of ['acme.example', 'globex.com', 'example.org'])
      assert.equal(isPublicMailDomain(domain), false, domain);
  });

  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let database: { url: string; drop(): Promise<void> };
      let env: NodeJS.ProcessEnv;
      let store: Store;
      const cli = async (...argv: string[]) => {
        const run = await runCliCaptured(argv, env);
        return { ...run, json: run.code === 0 ? (JSON.parse(run.out) as Record<string, unknown>) : undefined };
      };

      before(async () => {
        database = await freshDatabase(dialect);
        env = { DATABASE_URL: database.url, ISSUER: 'https://id.example.test' };
        assert.equal((await runCliCaptured(['migrate'], env)).code, 0);
        for (const [name, email, verified] of [
          ['alice', 'alice@acme.example', 'true'],
          ['mallory', 'mallory@acme.example', 'false'],
          ['bob', 'bob@globex.example', 'true'],
        ] as const) {
          const added = await runCliCaptured(
            ['users', 'add', '--username', name, '--email', email, '--email-verified', verified],
            env,
          );
          assert.equal(added.code, 0, added.err);
        }
        store = await openStore(database.url, { create: false });
      });
      after(async () => {
        await store.close();
        await database.drop();
      });

      it('gatehouse orgs add, roles, members add/list/remove, domains add/remove, policy set: stored and audited', async () => {
        const acme = await cli('orgs', 'add', 'acme', '--name', 'Acme Corp', '--role', 'admin', '--role', 'member');
        assert.equal(acme.code, 0, acme.err);
        assert.equal(acme.json?.slug, 'acme');
        assert.deepEqual(acme.json?.roles, ['admin', 'member']);
        assert.equal((await cli('orgs', 'add', 'acme')).code, 1, 'a slug is taken once');
        assert.equal((await cli('orgs', 'add', 'Not A Slug')).code, 1);
        assert.equal((await cli('orgs', 'add', 'globex', '--name', 'Globex')).code, 0);

        const member = await cli('orgs', 'members', 'add', 'acme', 'bob', '--role', 'admin');
        assert.equal(member.code, 0, member.err);
        assert.deepEqual(member.json?.roles, ['admin']);
        const wrongRole = await cli('orgs', 'members', 'add', 'acme', 'bob', '--role', 'owner');
        assert.equal(wrongRole.code, 1);
        assert.match(wrongRole.err, /'owner' is not a role of 'acme'/);
        assert.equal((await cli('orgs', 'members', 'add', 'acme', 'nobody')).code, 1);
        const listed = await runCliCaptured(['orgs', 'members', 'list', 'acme'], env);
        const members = JSON.parse(listed.out) as { username: string; roles: string[]; source: string }[];
        assert.deepEqual(
          members.map((m) => [m.username, m.roles, m.source]),
          [['bob', ['admin'], 'operator']],
        );

        const roles = await cli('orgs', 'roles', 'acme', '--remove', 'admin', '--add', 'owner');
        assert.equal(roles.code, 0, roles.err);
        assert.deepEqual(roles.json?.roles, ['member', 'owner']);
        const after = await store.findOrganization('acme');
        assert.deepEqual(
          (await store.findOrganizationMember(after?.id ?? '', (await store.findUser('bob'))?.subject ?? ''))?.roles,
          [],
          'a removed role is taken from its members',
        );

        const policy = await cli(
          'orgs',
          'policy',
          'set',
          'acme',
          '--second-factor',
          'required',
          '--sign-in-methods',
          'password,passkey',
          '--default-role',
          'member',
        );
        assert.equal(policy.code, 0, policy.err);
        assert.deepEqual(policy.json?.policy, {
          second_factor: 'required',
          sign_in_methods: ['password', 'passkey'],
          upstream: null,
          default_role: 'member',
        });
        assert.equal(
          (await cli('orgs', 'policy', 'set', 'acme', '--upstream', 'nowhere')).code,
          1,
          'an unknown upstream is refused',
        );
        assert.equal((await cli('orgs', 'policy', 'set', 'acme', '--second-factor', 'sometimes')).code, 1);

        const removed = await cli('orgs', 'members', 'remove', 'acme', 'bob');
        assert.equal(removed.code, 0, removed.err);
        assert.equal((await cli('orgs', 'members', 'remove', 'acme', 'bob')).code, 1, 'not a member any more');

        const events = await store.listAuditEvents({ limit: 100 });
        const names = events.filter((e) => e.event.startsWith('organization_')).map((e) => e.event);
        assert.deepEqual(names, [
          'organization_changed',
          'organization_changed',
          'organization_member_added',
          'organization_changed',
          'organization_changed',
          'organization_member_removed',
        ]);
        assert.ok(events.filter((e) => e.event.startsWith('organization_')).every((e) => e.actor === CLI_ACTOR.id));
      });

      it('a public mail domain is refused as an organization domain (organization_domain_public); a domain belongs to one organization', async () => {
        for (const domain of ['gmail.com', 'outlook.com', 'yahoo.com']) {
          const refused = await cli('orgs', 'domains', 'add', 'acme', domain, '--verified');
          assert.equal(refused.code, 1);
          assert.match(refused.err, /public mail domain/);
        }
        assert.equal((await cli('orgs', 'domains', 'add', 'acme', 'Acme.Example.', '--verified')).code, 0);
        assert.equal((await cli('orgs', 'domains', 'add', 'globex', 'acme.example')).code, 1, "another organization's");
        const unverified = await cli('orgs', 'domains', 'add', 'globex', 'globex.example');
        assert.equal(unverified.json?.verified, false);
        const shown = await cli('orgs', 'show', 'acme');
        assert.deepEqual(shown.json?.domains, [
          {
            domain: 'acme.example',
            verified: true,
            verified_at: (shown.json?.domains as { verified_at: string }[])[0]?.verified_at,
          },
        ]);
      });

      it('JIT membership: a verified address of a verified domain joins with the default role; an unverified one never does', async () => {
        const trail = new AuditTrail(store, () => {});
        const now = Math.floor(Date.now() / 1000);
        const alice = await store.findUser('alice');
        const mallory = await store.findUser('mallory');
        const bob = await store.findUser('bob');
        assert.ok(alice && mallory && bob);
        const joined = await joinByVerifiedDomain(store, trail, alice, now);
        assert.equal(joined?.slug, 'acme');
        const acme = await store.findOrganization('acme');
        assert.deepEqual((await store.findOrganizationMember(acme?.id ?? '', alice.subject))?.roles, ['member']);
        assert.equal((await store.findOrganizationMember(acme?.id ?? '', alice.subject))?.source, 'domain');
        assert.equal(await joinByVerifiedDomain(store, trail, alice, now), undefined, 'once');
        assert.equal(
          await joinByVerifiedDomain(store, trail, mallory, now),
          undefined,
          'an unverified address never joins',
        );
        assert.equal(await store.findOrganizationMember(acme?.id ?? '', mallory.subject), undefined);
        assert.equal(
          await joinByVerifiedDomain(store, trail, bob, now),
          undefined,
          'an unverified domain makes no member',
        );
        // The domain verified by the operator now: bob joins at his next sign-in.
        assert.equal((await cli('orgs', 'domains', 'add', 'globex', 'globex.example', '--verified')).code, 0);
        assert.equal((await joinByVerifiedDomain(store, trail, bob, now))?.slug, 'globex');
      });

      it('the organization of a request: named by id or slug (a member only), the only one, or a choice among several', async () => {
        const alice = await store.findUser('alice');
        assert.ok(alice);
        const acme = await store.findOrganization('acme');
        assert.ok(acme);
        const bySlug = await chooseOrganization(store, alice.subject, { requested: 'acme', scope: [] });
        assert.equal(bySlug.kind === 'chosen' && bySlug.organization.id, acme.id);
        const byId = await chooseOrganization(store, alice.subject, { requested: acme.id, scope: [] });
        assert.equal(byId.kind === 'chosen' && byId.organization.slug, 'acme');
        assert.equal(
          (await chooseOrganization(store, alice.subject, { requested: 'globex', scope: [] })).kind,
          'not_member',
        );
        assert.equal(
          (await chooseOrganization(store, alice.subject, { requested: 'nope', scope: [] })).kind,
          'not_member',
        );
        assert.equal(
          (await chooseOrganization(store, alice.subject, { requested: undefined, scope: ['openid'] })).kind,
          'none',
        );
        const only = await chooseOrganization(store, alice.subject, { requested: undefined, scope: ['organization'] });
        assert.equal(only.kind === 'chosen' && only.organization.slug, 'acme');
        assert.equal((await cli('orgs', 'members', 'add', 'globex', 'alice')).code, 0);
        const several = await chooseOrganization(store, alice.subject, {
          requested: undefined,
          scope: ['organization'],
        });
        assert.deepEqual(several.kind === 'choose' && several.organizations.map((o) => o.slug), ['acme', 'globex']);
        assert.deepEqual(await organizationClaims(store, acme.id, alice.subject), {
          org_id: acme.id,
          org_name: 'Acme Corp',
          org_roles: ['member'],
        });
      });

      it('gatehouse orgs remove removes its members and domains', async () => {
        assert.equal((await cli('orgs', 'remove', 'globex')).code, 0);
        assert.equal(await store.findOrganization('globex'), undefined);
        assert.equal(await store.findOrganizationDomain('globex.example'), undefined);
        assert.equal((await cli('orgs', 'remove', 'globex')).code, 1);
      });
    });
});
