import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../src/store/open.js';
import { ROW_EPOCH_TABLE } from '../src/store/row-cache.js';
import { POSTGRES_ROW_EPOCH_TRIGGERS, ROW_EPOCH_FUNCTION } from '../src/store/postgres/migrations.js';
import { ROW_EPOCH_TRIGGERS } from '../src/store/sqlite/migrations.js';
import { DIALECTS, executeStatements, freshDatabase, type Dialect } from './_dialects.js';
import { childEnv, spawnGroup, type ProcessGroup } from './_processes.js';

/** The built store: what `gatehouse migrate` and `gatehouse serve` open at start (`npm run build` first). */
const STORE_MODULE = new URL('../dist/store/open.js', import.meta.url).href;
const ALL_MIGRATIONS = [
  '0001_initial',
  '0002_records',
  '0003_users_sessions',
  '0004_signing_key_activation',
  '0005_audit_events',
  '0006_rate_limits',
  '0007_replay_window',
  '0008_openid_connect',
  '0009_device_authorization',
  '0010_client_registration',
  '0011_admin',
  '0012_server_settings',
  '0013_sign_in_methods',
  '0014_record_owners',
  '0015_grant_subjects',
  '0016_second_factors',
  '0017_passkeys',
  '0018_federation',
  '0019_client_id_metadata_documents',
  '0020_token_exchange',
  '0021_dpop',
  '0022_client_keys_pushed_requests',
  '0023_fapi_profile',
  '0024_exchange_grants',
  '0025_user_emails',
  '0026_row_epoch',
  '0027_mail_outbox',
  '0028_access',
  '0029_accounts',
  '0030_client_presentations',
  '0031_organizations',
  '0032_rate_limit_charge',
  '0035_access_epoch',
  '0036_required_actions',
  '0038_list_indexes',
  '0039_token_path_functions',
  '0040_dpop_proofs_shape',
];

/**
 * A process that has loaded the store code and waits, so that a trial times the start of the store
 * itself (its migrations), not Node's start-up: on a message with a DATABASE_URL it opens the
 * store as `gatehouse migrate` does, applying pending migrations, and answers what it applied.
 */
const CHILD = `
const { openStore } = await import(process.env.STORE_MODULE);
process.on('message', async (url) => {
  try {
    const store = await openStore(url, { migrations: 'apply' });
    await store.close();
    process.send({ ok: true, applied: store.appliedMigrations });
  } catch (error) {
    process.send({ ok: false, error: (error?.code ?? '') + ' ' + String(error?.stack ?? error) });
  }
});
process.send('ready');
`;

interface StoreStart {
  readonly ok: boolean;
  readonly applied?: string[];
  readonly error?: string;
}

interface StoreProcess {
  readonly group: ProcessGroup;
  /** Opens the store at `url` in the child; resolves with its answer. */
  start(url: string): Promise<StoreStart>;
}

async function spawnStoreProcess(): Promise<StoreProcess> {
  const group = spawnGroup(process.execPath, ['--input-type=module', '-e', CHILD], {
    env: childEnv({ STORE_MODULE }),
    ipc: true,
  });
  const [ready] = (await Promise.race([once(group.child, 'message'), group.exited.then(() => [group.output()])])) as [
    unknown,
  ];
  assert.equal(ready, 'ready');
  return {
    group,
    async start(url) {
      group.child.send(url);
      const [answer] = (await once(group.child, 'message')) as [StoreStart];
      return answer;
    },
  };
}

/** kill -9 of the store process (its whole group); resolves with the signal it ended by, null if it had exited. */
async function kill(group: ProcessGroup): Promise<NodeJS.Signals | null> {
  group.kill();
  return (await group.exited).signal;
}

/** The tables and columns of the store's schema, one `table.column` a line. */
async function describeSchema(dialect: Dialect, url: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    if (!existsSync(file)) return [];
    const database = new BetterSqlite3(file, { readonly: true });
    try {
      return database
        .prepare<[], { t: string; c: string }>(
          "select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' order by 1, 2",
        )
        .all()
        .map((row) => `${row.t}.${row.c}`);
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string; c: string }>(
      'select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema() order by 1, 2',
    );
    return rows.map((row) => `${row.t}.${row.c}`);
  } finally {
    await client.end();
  }
}

type FreshDatabase = Awaited<ReturnType<typeof freshDatabase>>;

/** Takes a complete store back to the schema of migration 0003, as an earlier version left it. */
async function downgradeTo0003(dialect: Dialect, url: string): Promise<void> {
  const statements = [
    // 0040_dpop_proofs_shape: SQLite's table goes with 0021's, below (PostgreSQL's is unchanged)
    // 0039_token_path_functions: PostgreSQL's functions (SQLite has none)
    ...(dialect === 'postgres'
      ? ['drop function refresh_token_locked_read', 'drop function refresh_token_rotate']
      : []),
    // 0038_list_indexes: the grants' index (the roles' one goes with 0028's access_roles, below)
    'drop index grants_live_expiry',
    // 0036_required_actions
    'alter table users drop column password_temporary',
    'alter table users drop column terms_version',
    'alter table users drop column terms_accepted_at',
    // 0035_access_epoch: its triggers go with 0028's tables, below
    // 0032_rate_limit_charge: PostgreSQL's function (SQLite has none)
    ...(dialect === 'postgres' ? ['drop function rate_limits_charge'] : []),
    // 0031_organizations: the organization kept by codes and grants, then the tables
    'alter table authorization_codes drop column organization_id',
    'alter table grants drop column organization_id',
    'drop table organization_domains',
    'drop table organization_members',
    'drop table organizations',
    // 0030_client_presentations
    'drop table client_presentations',
    // 0029_accounts (its index goes with the table)
    'drop table account_links',
    // 0028_access (their indexes go with the tables)
    'drop table role_assignments',
    'drop table access_roles',
    'drop table group_members',
    'drop table access_groups',
    // 0027_mail_outbox (its index goes with the table)
    'drop table mail_outbox',
    // 0026_row_epoch: the triggers, PostgreSQL's function, the table
    ...(dialect === 'sqlite'
      ? ROW_EPOCH_TRIGGERS.map(([trigger]) => `drop trigger ${trigger}`)
      : [
          ...POSTGRES_ROW_EPOCH_TRIGGERS.map(
            ([trigger, event]) => `drop trigger ${trigger} on ${event.split(' on ')[1]}`,
          ),
          `drop function ${ROW_EPOCH_FUNCTION}()`,
        ]),
    `drop table ${ROW_EPOCH_TABLE}`,
    // 0025_user_emails (SQLite drops no indexed column: the index first)
    'drop index users_email_normalized',
    'alter table users drop column email_normalized',
    // 0024_exchange_grants
    'drop index grants_parent_grant_id',
    'alter table grants drop column exchange',
    'alter table grants drop column parent_grant_id',
    // 0023_fapi_profile
    'alter table clients drop column profile',
    // 0022_client_keys_pushed_requests
    'drop table client_assertion_jtis',
    'drop table pushed_authorization_requests',
    'alter table clients drop column jwks',
    'alter table clients drop column jwks_uri',
    'alter table clients drop column auth_method',
    'alter table clients drop column require_par',
    // 0021_dpop
    'drop table dpop_proofs',
    "delete from server_secrets where name = 'dpop_nonce_key'",
    'alter table grants drop column dpop_jkt',
    'alter table authorization_codes drop column dpop_jkt',
    'alter table clients drop column dpop_bound_access_tokens',
    // 0020_token_exchange
    'alter table clients drop column token_exchange',
    // 0019_client_id_metadata_documents
    'drop table client_id_metadata_documents',
    // 0018_federation (the index goes with its table)
    'drop table federation_states',
    'drop table federated_identities',
    'drop table upstream_providers',
    // 0017_passkeys (its tables reference users.subject and browser_sessions: first)
    'drop table webauthn_challenges',
    'drop table passkeys',
    // 0016_second_factors (its server_secrets row goes with that table below)
    'drop table recovery_codes',
    'drop table second_factors',
    'alter table clients drop column second_factor',
    'alter table users drop column second_factor_required',
    // 0015_grant_subjects changed rows only: its bookkeeping row goes with the others below.
    // 0014_record_owners (SQLite drops no indexed column: the index first)
    'drop index records_owner',
    'alter table records drop column owner',
    // 0013_sign_in_methods (its device_authorizations and grant_authentications columns go with their tables)
    'alter table browser_sessions drop column pending',
    'alter table browser_sessions drop column methods',
    'alter table authorization_codes drop column amr',
    // 0012_server_settings
    'drop table server_settings',
    // 0011_admin
    'alter table clients drop column admin',
    'alter table users drop column disabled_at',
    // 0010_client_registration
    'drop table client_registrations',
    'drop table registration_tokens',
    // 0009_device_authorization
    'drop table device_authorizations',
    // 0008_openid_connect
    'drop table grant_authentications',
    'drop index users_subject',
    'alter table users drop column subject',
    'alter table users drop column claims',
    'alter table authorization_codes drop column nonce',
    'alter table authorization_codes drop column auth_time',
    'alter table clients drop column id_token_alg',
    'alter table clients drop column post_logout_redirect_uris',
    "delete from signing_keys where alg = 'RS256'",
    'drop table audit_events', // with 0011's actor
    'alter table signing_keys drop column activates_at',
    'drop table server_secrets',
    'alter table clients drop column replay_window',
    'alter table grants drop column rotated_at',
    "delete from kysely_migration where name > '0003_users_sessions'",
    ...(dialect === 'postgres' ? ['drop table rate_limits'] : []),
  ];
  await executeStatements(dialect, url, statements);
}

/** Runs `trial` for 0..count-1, at most `parallel` at a time; after a failure, starts no more. */
async function inBatches(count: number, parallel: number, trial: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        try {
          await trial(next++);
        } catch (error) {
          next = count;
          throw error;
        }
      }
    }),
  );
}

for (const dialect of DIALECTS)
  describe(`migrations under faults [${dialect}]`, () => {
    let complete: string[];
    /** How long a first start takes in a process that is ready, ms: the window the kills fall in. */
    let firstStartMs: number;

    before(async () => {
      const database = await freshDatabase(dialect);
      const store = await spawnStoreProcess();
      const started = performance.now();
      assert.equal((await store.start(database.url)).error, undefined);
      firstStartMs = performance.now() - started;
      await kill(store.group);
      complete = await describeSchema(dialect, database.url);
      await database.drop();
    });

    /**
     * Starts the store in `trials` processes, each on its own database made by `make`, and kills
     * each at a random moment of its start; then a normal start must bring the schema to complete.
     */
    async function killDuringStarts(trials: number, make: () => Promise<FreshDatabase>): Promise<void> {
      // How the kills fell: before the store answered (its schema then as it was, complete or, were
      // migrations not atomic, in between), or after.
      const outcomes = { before: 0, between: 0, complete: 0, answered: 0 };
      const tables = (schema: string[]) => new Set(schema.map((column) => column.split('.')[0])).size;
      await inBatches(trials, 6, async () => {
        const database = await make();
        try {
          const initial = tables(await describeSchema(dialect, database.url));
          const store = await spawnStoreProcess();
          const started = store.start(database.url).catch(() => undefined);
          // The kill's random moment is the fault itself, not a wait for something.
          await sleep(Math.random() * firstStartMs);
          const signal = await kill(store.group);
          const answer = await Promise.race([started, sleep(0)]);
          if (signal === null || answer) outcomes.answered++;
          else {
            const left = tables(await describeSchema(dialect, database.url).catch(() => []));
            outcomes[left === tables(complete) ? 'complete' : left === initial ? 'before' : 'between']++;
          }
          const next = await openStore(database.url);
          await next.close();
          await openStore(database.url, { migrations: 'check' }).then((s) => s.close());
          assert.deepEqual(await describeSchema(dialect, database.url), complete);
        } finally {
          await database.drop();
        }
      });
      // The kills must land while the store was starting, or the trial proves nothing.
      assert.ok(outcomes.answered <= trials * 0.7, JSON.stringify(outcomes));
      console.log(`# kills [${dialect}] in 0–${Math.round(firstStartMs)} ms: ${JSON.stringify(outcomes)}`);
    }

    it('a kill -9 at a random moment of 12 first starts leaves a store that the next start migrates completely', async () => {
      await killDuringStarts(12, () => freshDatabase(dialect));
    });

    it('a kill -9 at a random moment of 6 upgrades (from 0003) leaves a store that the next start migrates, its rows kept', async () => {
      // 0014 leaves a record of an older store with no owner.
      const kept = {
        collection: 'contacts',
        id: 'kept',
        owner: null,
        body: { n: 1 },
        version: 1,
        createdAt: 1,
        updatedAt: 1,
      };
      const keptUser = {
        username: 'kept',
        passwordHash: 'scrypt$x',
        createdAt: 1,
        updatedAt: 1,
        subject: 'dropped',
        claims: {},
      };
      const upgraded: FreshDatabase[] = [];
      await killDuringStarts(6, async () => {
        const database = await freshDatabase(dialect);
        const store = await openStore(database.url);
        await store.insertRecord(kept);
        await store.insertUser(keptUser);
        await store.close();
        await downgradeTo0003(dialect, database.url);
        upgraded.push(database);
        return {
          url: database.url,
          async drop() {
            const store = await openStore(database.url);
            try {
              assert.deepEqual(await store.findRecord('contacts', 'kept'), kept);
              // 0008 gave the user of an older store an opaque subject of its own.
              const user = await store.findUser('kept');
              assert.equal(user?.passwordHash, keptUser.passwordHash);
              assert.match(user?.subject ?? '', /^[0-9a-f]{32}$/);
              assert.notEqual(user?.subject, keptUser.subject);
            } finally {
              await store.close();
              await database.drop();
            }
          },
        };
      });
      assert.equal(upgraded.length, 6);
    });

    for (const processes of [2, 4])
      it(`${processes} processes starting together on one empty store, 8 times, all come up, one of them migrating`, async () => {
        const starters = await Promise.all(Array.from({ length: processes }, () => spawnStoreProcess()));
        try {
          for (let trial = 0; trial < 8; trial++) {
            const database = await freshDatabase(dialect);
            try {
              const answers = await Promise.all(starters.map((s) => s.start(database.url)));
              for (const answer of answers) assert.equal(answer.error, undefined);
              const applied = answers.flatMap((answer) => answer.applied ?? []);
              assert.deepEqual(applied.sort(), ALL_MIGRATIONS, 'each migration applied exactly once');
              assert.deepEqual(await describeSchema(dialect, database.url), complete);
            } finally {
              await database.drop();
            }
          }
        } finally {
          await Promise.all(starters.map((s) => kill(s.group)));
        }
      });
  });
