import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli } from '../src/cli/run.js';
import { adminToken, api, assertProblem, type Api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestServer } from './_server.js';

const ADMIN = '/admin/v1';

/** Every item of a list, read page after page by `next_cursor`, with the number of pages. */
async function readAll<T>(reader: Api, path: string, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const next: string = cursor === null ? '' : `&cursor=${cursor}`;
    const page = await reader.get(`${ADMIN}${path}${separator}limit=${limit}${next}`);
    assert.equal(page.status, 200, page.text);
    const body = page.body as { items: T[]; next_cursor: string | null };
    assert.ok(body.items.length <= limit, `a page of ${body.items.length} items past the limit ${limit}`);
    items.push(...body.items);
    cursor = body.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { items, pages };
}

const names = (items: readonly { name: string }[]): string[] => items.map((i) => i.name);

/**
 * The lists of groups, roles and organizations of the admin API: paged by cursor and searched in the
 * store as the users list is (`limit`, `cursor`, `q`), every answer as the served document says.
 */
describe('the admin API lists of groups, roles and organizations', () => {
  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let server: TestServer;
      let admin: Api;
      let reader: Api;

      before(async () => {
        server = await startTestServer({ dialect });
        admin = api(server, await adminToken(server, 'ops'));
        reader = api(server, await adminToken(server, 'auditor', '--scope', 'gatehouse:admin:read'));
        const env = { DATABASE_URL: server.databaseUrl, ISSUER };
        assert.equal(await runCli(['users', 'add', '--username', 'bob'], env, { out: () => {}, err: () => {} }), 0);
        assert.equal((await admin.post(`${ADMIN}/groups`, { name: 'Support' })).status, 201);
        for (let i = 0; i < 24; i++) {
          const made = await admin.post(`${ADMIN}/groups`, {
            name: `team-${String(i).padStart(2, '0')}`,
            parent: 'Support',
          });
          assert.equal(made.status, 201, made.text);
        }
        for (let i = 0; i < 12; i++) {
          const body = { name: `reader-${String(i).padStart(2, '0')}`, api: '/v2', description: `Reads shelf ${i}` };
          assert.equal((await admin.post(`${ADMIN}/roles`, body)).status, 201);
        }
        assert.equal((await admin.post(`${ADMIN}/roles`, { name: 'Operator' })).status, 201);
        for (let i = 0; i < 23; i++) {
          const slug = `org-${String(i).padStart(2, '0')}`;
          const made = await admin.post(`${ADMIN}/organizations`, {
            slug,
            name: i === 7 ? 'Acme Widgets' : `Company ${i}`,
          });
          assert.equal(made.status, 201, made.text);
        }
      });
      after(() => server.close());

      it('pages through more groups than a page holds, by name, each once, with its parent', async () => {
        const { items, pages } = await readAll<{ name: string; parent: string | null }>(reader, '/groups', 10);
        assert.equal(pages, 3);
        assert.equal(items.length, 25);
        assert.deepEqual(names(items), [...names(items)].sort());
        assert.equal(new Set(names(items)).size, 25);
        assert.equal(items.find((g) => g.name === 'team-03')?.parent, 'Support');
        assert.equal(items.find((g) => g.name === 'Support')?.parent, null);
        const first = await reader.get(`${ADMIN}/groups`);
        assert.equal(first.body.items.length, 20, 'the default page is 20');
        assert.equal(typeof first.body.next_cursor, 'string');
      });

      it('searches groups by part of the name in any case, a LIKE wildcard taken as itself', async () => {
        const found = await reader.get(`${ADMIN}/groups?q=SUPP`);
        assert.deepEqual(names(found.body.items), ['Support']);
        assert.equal(found.body.next_cursor, null);
        const { items, pages } = await readAll<{ name: string }>(reader, '/groups?q=team-1', 4);
        assert.deepEqual(
          names(items),
          Array.from({ length: 10 }, (_, i) => `team-1${i}`),
        );
        assert.equal(pages, 3);
        assert.deepEqual((await reader.get(`${ADMIN}/groups?q=team_0`)).body.items, []);
        assert.deepEqual((await reader.get(`${ADMIN}/groups?q=%25`)).body.items, []);
      });

      it('reads one group with its parent; an unknown one is 404', async () => {
        assert.deepEqual(
          [
            (await reader.get(`${ADMIN}/groups/team-05`)).body.name,
            (await reader.get(`${ADMIN}/groups/team-05`)).body.parent,
          ],
          ['team-05', 'Support'],
        );
        assertProblem(await reader.get(`${ADMIN}/groups/nobody`), 404, 'not-found');
      });

      it('pages through the roles: server-wide first, then by API, each by name', async () => {
        const { items, pages } = await readAll<{ name: string; api: string | null }>(reader, '/roles', 5);
        assert.equal(items.length, 16);
        assert.equal(pages, 4);
        const serverWide = items.filter((r) => r.api === null).map((r) => r.name);
        assert.deepEqual(serverWide.sort(), ['Operator', 'admin', 'auditor', 'user-manager'].sort());
        assert.deepEqual(
          items.slice(0, 4).map((r) => r.api),
          [null, null, null, null],
        );
        assert.deepEqual(
          names(items.slice(4)),
          Array.from({ length: 12 }, (_, i) => `reader-${String(i).padStart(2, '0')}`),
        );
        const ofApi = await readAll<{ api: string | null }>(reader, '/roles?api=%2Fv2', 5);
        assert.equal(ofApi.items.length, 12);
        assert.ok(ofApi.items.every((r) => r.api === '/v2'));
      });

      it('searches roles by name, description or API, in any case', async () => {
        assert.deepEqual(names((await reader.get(`${ADMIN}/roles?q=OPERATOR`)).body.items), ['Operator']);
        assert.deepEqual(names((await reader.get(`${ADMIN}/roles?q=shelf%2011`)).body.items), ['reader-11']);
        assert.equal((await reader.get(`${ADMIN}/roles?q=%2Fv2&limit=100`)).body.items.length, 12);
      });

      it('lists the roles one holder holds directly (holder=group:NAME, user:USERNAME)', async () => {
        assert.equal((await admin.post(`${ADMIN}/roles/reader-03/assign?api=%2Fv2`, { group: 'team-01' })).status, 204);
        assert.equal((await admin.post(`${ADMIN}/roles/Operator/assign`, { group: 'team-01' })).status, 204);
        assert.equal((await admin.post(`${ADMIN}/roles/reader-05/assign?api=%2Fv2`, { user: 'bob' })).status, 204);
        const ofGroup = await reader.get(`${ADMIN}/roles?holder=group%3Ateam-01`);
        assert.deepEqual(
          ofGroup.body.items.map((r: { name: string; api: string | null }) => [r.name, r.api]),
          [
            ['Operator', null],
            ['reader-03', '/v2'],
          ],
        );
        assert.deepEqual(names((await reader.get(`${ADMIN}/roles?holder=user%3ABob`)).body.items), ['reader-05']);
        assert.deepEqual((await reader.get(`${ADMIN}/roles?holder=group%3Ateam-02`)).body.items, []);
        assertProblem(await reader.get(`${ADMIN}/roles?holder=group%3Anobody`), 404, 'not-found');
        assertProblem(await reader.get(`${ADMIN}/roles?holder=team-01`), 400, 'invalid-parameter');
        const one = await reader.get(`${ADMIN}/roles/reader-03?api=%2Fv2`);
        assert.deepEqual([one.body.name, one.body.api], ['reader-03', '/v2']);
        assertProblem(await reader.get(`${ADMIN}/roles/reader-03`), 404, 'not-found');
      });

      it('pages through the organizations by slug and searches them by slug or name', async () => {
        const { items, pages } = await readAll<{ slug: string }>(reader, '/organizations', 10);
        assert.equal(pages, 3);
        assert.deepEqual(
          items.map((o) => o.slug),
          Array.from({ length: 23 }, (_, i) => `org-${String(i).padStart(2, '0')}`),
        );
        const byName = await reader.get(`${ADMIN}/organizations?q=widgets`);
        assert.deepEqual(
          byName.body.items.map((o: { slug: string }) => o.slug),
          ['org-07'],
        );
        assert.equal((await reader.get(`${ADMIN}/organizations?q=ORG-1`)).body.items.length, 10);
      });

      it('bad paging or search input is a 400 invalid_parameter on every list, never a 5xx', async () => {
        const notAKey = Buffer.from('no line break').toString('base64url');
        for (const list of ['/groups', '/roles', '/organizations']) {
          for (const query of [
            'limit=0',
            'limit=101',
            'limit=ten',
            'limit=1&limit=2',
            'cursor=%21%21',
            `cursor=${'A'.repeat(301)}`,
            'q=',
            'q=%20%20',
            `q=${'x'.repeat(65)}`,
            'q=a&q=b',
          ])
            assertProblem(await reader.get(`${ADMIN}${list}?${query}`), 400, 'invalid-parameter');
        }
        assertProblem(await reader.get(`${ADMIN}/roles?cursor=${notAKey}`), 400, 'invalid-parameter');
        // A cursor past every key is an empty last page, not an error.
        const past = Buffer.from('\u{10FFFF}').toString('base64url');
        for (const list of ['/groups', '/organizations'])
          assert.deepEqual((await reader.get(`${ADMIN}${list}?cursor=${past}`)).body, { items: [], next_cursor: null });
      });

      it(
        dialect === 'postgres'
          ? 'the dashboard counts past 10,000 users and grants from the statistics, said to be approximate'
          : 'the dashboard counts users, clients and live grants exactly',
        async () => {
          const exact = await reader.get(`${ADMIN}/overview`);
          assert.deepEqual(
            [exact.body.counts.users, exact.body.counts.approximate],
            [1, false],
            'a small store is counted row by row',
          );
          if (dialect !== 'postgres') return;
          const now = server.clock.now();
          const client = new pg.Client({ connectionString: server.databaseUrl });
          await client.connect();
          try {
            await client.query(
              `insert into users (username, password_hash, created_at, updated_at, subject, claims)
               select 'filler-' || i, 'x', 0, 0, 'filler-subject-' || i, '{}' from generate_series(1, 12000) i`,
            );
            // Half the grants past their absolute expiry: the estimate follows the filter, not the table.
            await client.query(
              `insert into grants (id, client_id, subject, scope, created_at, expires_at, rotation_count)
               select 'filler-' || i, 'ops', 'filler-subject-' || i, '', 0, case when i % 2 = 0 then 1 else $1 end, 0
               from generate_series(1, 12000) i`,
              [now + 86_400],
            );
            await client.query('analyze users');
            await client.query('analyze grants');
          } finally {
            await client.end();
          }
          const { counts } = (await reader.get(`${ADMIN}/overview`)).body;
          assert.equal(counts.approximate, true);
          assert.ok(Math.abs(counts.users - 12_001) <= 600, `users about 12,001: ${counts.users}`);
          assert.ok(Math.abs(counts.live_grants - 6_000) <= 600, `live grants about 6,000: ${counts.live_grants}`);
          assert.equal(counts.clients, exact.body.counts.clients, 'clients are always counted');
        },
      );
    });
});
