import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { newId } from '../primitives/ids.js';
import { normalizedEmail } from './identity-repository.js';
import { ROW_EPOCH, ROW_EPOCH_TABLE } from './row-cache.js';
import type { Database } from './schema.js';

/**
 * The steps of the shared migrations that differ by dialect: each dialect folder gives its own
 * (`sqlite/migrations.ts`, `postgres/migrations.ts`), so this file never asks which database it is on.
 */
export interface DialectSteps {
  /** 0006: the table of rate-limit buckets, on a dialect that keeps them in the database. */
  createRateLimitsTable(db: Kysely<unknown>): Promise<void>;
  /** Whether the table exists in the store's schema. */
  hasTable(db: Kysely<unknown>, name: string): Promise<boolean>;
  /**
   * 0026: the triggers that advance the row epoch in the transaction of every change a row kept in
   * memory could miss: any update or delete of a client, a grant's revocation, subject or deletion
   * (`row-cache.ts`). Inserts need none: a row not found is not kept.
   */
  createRowEpochTriggers(db: Kysely<unknown>): Promise<void>;
  /**
   * 0032: on a dialect that keeps rate-limit buckets in the database, what charges many requests'
   * buckets in one statement (`postgres/rate-limit-store.ts`).
   */
  createRateLimitCharge(db: Kysely<unknown>): Promise<void>;
  /**
   * 0035: triggers that advance the row epoch in the transaction of every change of what a user
   * holds (ACCESS_EPOCH_TABLES: any insert, update or delete of a group, a membership, a role or an
   * assignment), so that the store may keep the groups and roles it resolved (`heldAccess`) under
   * the epoch as it keeps clients (`row-cache.ts`). Inserts too: a new membership changes an answer.
   */
  createAccessEpochTriggers(db: Kysely<unknown>): Promise<void>;
  /**
   * 0039: on a dialect that plans a statement sent unnamed at every call, a refresh's locked read
   * and rotation as functions whose plans the database keeps (`postgres/token-path-functions.ts`).
   */
  createTokenPathFunctions(db: Kysely<unknown>): Promise<void>;
  /**
   * 0040: the DPoP replay table (0021's `dpop_proofs`) in the shape its dialect writes with the least
   * work per proof, its rows kept: one insert per proof on the token path, a sweep a minute
   * (`sqlite/dpop-sweep.ts`).
   */
  reshapeDpopProofs(db: Kysely<unknown>): Promise<void>;
}

/** 0035: the tables whose every change advances the row epoch (DialectSteps.createAccessEpochTriggers). */
export const ACCESS_EPOCH_TABLES = ['access_groups', 'group_members', 'access_roles', 'role_assignments'] as const;

/**
 * Migrations in code, written with Kysely's schema builder so the same steps run on SQLite and
 * PostgreSQL. Applied at start; never edit a released migration, add a new one.
 */
const migrations = (steps: DialectSteps): Record<string, Migration> => ({
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_digest', 'text')
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('grant_types', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('rotation', 'integer', (c) => c.notNull())
        .addColumn('rotation_limit', 'integer', (c) => c.notNull())
        .addColumn('max_rotations', 'integer')
        .addColumn('refresh_token_ttl', 'bigint', (c) => c.notNull())
        .addColumn('refresh_token_absolute_ttl', 'bigint', (c) => c.notNull())
        .addColumn('access_token_ttl', 'bigint', (c) => c.notNull())
        .addColumn('resource_server', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('rotation_count', 'integer', (c) => c.notNull())
        .addColumn('head_token_id', 'text')
        .addColumn('previous_token_id', 'text')
        .addColumn('revoked_at', 'bigint')
        .addColumn('revoked_reason', 'text')
        .execute();
      await db.schema.createIndex('grants_client_id').on('grants').column('client_id').execute();
      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('grants.id').onDelete('cascade'))
        .addColumn('use_count', 'integer', (c) => c.notNull())
        .addColumn('issued_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refresh_tokens_grant_id').on('refresh_tokens').column('grant_id').execute();
      await db.schema
        .createTable('authorization_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('code_challenge_method', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('grant_id', 'text')
        .execute();
      await db.schema
        .createTable('signing_keys')
        .addColumn('kid', 'text', (c) => c.primaryKey())
        .addColumn('alg', 'text', (c) => c.notNull())
        .addColumn('private_jwk', 'text', (c) => c.notNull())
        .addColumn('public_jwk', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('retired_at', 'bigint')
        .execute();
    },
  },
  '0002_records': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('records')
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('records_pk', ['collection', 'id'])
        .execute();
    },
  },
  '0003_users_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('username', 'text', (c) => c.primaryKey())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('browser_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.references('users.username').onDelete('cascade'))
        .addColumn('authenticated_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('browser_sessions_expires_at').on('browser_sessions').column('expires_at').execute();
      await db.schema.createIndex('browser_sessions_username').on('browser_sessions').column('username').execute();
      // Remembered consent looks up a user's grants for one client.
      await db.schema.createIndex('grants_client_subject').on('grants').columns(['client_id', 'subject']).execute();
    },
  },
  '0004_signing_key_activation': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('signing_keys').addColumn('activates_at', 'bigint').execute();
    },
  },
  '0005_audit_events': {
    async up(db: Kysely<unknown>) {
      // Security events for operators; never a token, secret, password or digest.
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('subject', 'text')
        .addColumn('grant_id', 'text')
        .addColumn('reason', 'text')
        .addColumn('address', 'text')
        .execute();
      await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
    },
  },
  '0006_rate_limits': {
    async up(db: Kysely<unknown>) {
      await steps.createRateLimitsTable(db);
    },
  },
  '0007_replay_window': {
    async up(db: Kysely<unknown>) {
      // Seconds during which a replay of a just-rotated token is answered with its successor; 0: off.
      await db.schema
        .alterTable('clients')
        .addColumn('replay_window', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // When the family last rotated; null for a family that never has.
      await db.schema.alterTable('grants').addColumn('rotated_at', 'bigint').execute();
      // Secrets every process of the server shares, made once, here, by the process that migrates.
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await (db as Kysely<Pick<Database, 'server_secrets'>>)
        .insertInto('server_secrets')
        .values({
          name: 'refresh_successor_key',
          value: randomBytes(32).toString('base64url'),
          created_at: Math.floor(Date.now() / 1000),
        })
        .execute();
    },
  },
  '0008_openid_connect': {
    async up(db: Kysely<unknown>) {
      await openIdConnectMigration(db);
    },
  },
  '0009_device_authorization': {
    async up(db: Kysely<unknown>) {
      // RFC 8628: both codes only as digests; a row lives until a day after it expired.
      await db.schema
        .createTable('device_authorizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_code_digest', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('poll_interval', 'integer', (c) => c.notNull())
        .addColumn('last_polled_at', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('auth_time', 'bigint')
        .execute();
      await db.schema
        .createIndex('device_authorizations_expires_at')
        .on('device_authorizations')
        .column('expires_at')
        .execute();
    },
  },
  '0010_client_registration': {
    async up(db: Kysely<unknown>) {
      await clientRegistrationMigration(db);
    },
  },
  '0011_admin': {
    async up(db: Kysely<unknown>) {
      // Admin clients hold the gatehouse:admin scopes; only `gatehouse clients add --admin` makes one.
      await db.schema
        .alterTable('clients')
        .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
      // Who made an administrative change: an admin client's id, or `cli`.
      await db.schema.alterTable('audit_events').addColumn('actor', 'text').execute();
    },
  },
  // What the server runs with (the issuer), for the CLI run beside it.
  '0012_server_settings': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0013_sign_in_methods': { up: signInMethodsMigration },
  '0014_record_owners': { up: recordOwnersMigration },
  '0015_grant_subjects': { up: grantSubjectsMigration },
  '0016_second_factors': { up: secondFactorsMigration },
  '0017_passkeys': { up: passkeysMigration },
  '0018_federation': { up: federationMigration },
  '0019_client_id_metadata_documents': { up: clientIdMetadataDocumentsMigration },
  // Token exchange (RFC 8693): each client's policy, JSON; existing clients keep the defaults (null).
  '0020_token_exchange': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').addColumn('token_exchange', 'text').execute();
    },
  },
  '0022_client_keys_pushed_requests': { up: clientKeysMigration },
  '0021_dpop': { up: dpopMigration },
  // The client's security profile (`fapi2`, the FAPI 2.0 Security Profile); null for none.
  '0023_fapi_profile': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('clients').addColumn('profile', 'text').execute();
    },
  },
  '0024_exchange_grants': { up: exchangeGrantsMigration },
  '0025_user_emails': { up: userEmailsMigration },
  '0026_row_epoch': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(ROW_EPOCH_TABLE)
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('epoch', 'bigint', (c) => c.notNull())
        .execute();
      await (db as Kysely<Pick<Database, 'row_epochs'>>)
        .insertInto('row_epochs')
        .values({ name: ROW_EPOCH, epoch: 0 })
        .execute();
      await steps.createRowEpochTriggers(db);
    },
  },
  '0027_mail_outbox': { up: mailOutboxMigration },
  '0028_access': { up: accessMigration },
  '0029_accounts': { up: accountsMigration },
  '0030_client_presentations': { up: clientPresentationsMigration },
  '0031_organizations': { up: organizationsMigration },
  '0032_rate_limit_charge': { up: (db) => steps.createRateLimitCharge(db) },
  '0035_access_epoch': { up: (db) => steps.createAccessEpochTriggers(db) },
  '0036_required_actions': { up: requiredActionsMigration },
  '0038_list_indexes': { up: listIndexesMigration },
  '0039_token_path_functions': { up: (db) => steps.createTokenPathFunctions(db) },
  '0040_dpop_proofs_shape': { up: (db) => steps.reshapeDpopProofs(db) },
});

/**
 * 0038: what the console's lists and dashboard read often, as index ranges rather than whole tables.
 * The roles by API then name, server-wide ones ('') first: a page of GET /admin/v1/roles is a range.
 * The live grants by expiry, without the revoked ones: the dashboard's count reads this small index
 * (SQLite counts 100,000 grants in it in about 2 ms instead of 30 ms through the table); refreshes
 * change neither column, so the token path does not write it.
 */
async function listIndexesMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('access_roles_list_order').on('access_roles').columns(['scope_id', 'name']).execute();
  await db.schema
    .createIndex('grants_live_expiry')
    .on('grants')
    .column('expires_at')
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

/**
 * 0036: the required actions of a sign-in (docs/accounts.md): whether the user's password is a
 * temporary one an operator set (`users passwd --temporary`), and the version of the terms the user
 * accepted last, with its time.
 */
async function requiredActionsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_temporary', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('terms_version', 'text').execute();
  await db.schema.alterTable('users').addColumn('terms_accepted_at', 'bigint').execute();
}

/**
 * 0028: groups, roles and their assignments (access/). A group has an optional parent: a member of a
 * group is a member of its ancestors. A role has a scope: the whole server (`server`, scope id ''),
 * one API (`api`, the audience: a resource server's client id, or `/v2` for the built-in REST API),
 * or, for organizations, one organization. A role is assigned to a user (by subject), a group or a
 * client. The three roles of the admin API (`admin`, `user-manager`, `auditor`) are made here,
 * server-wide, marked built-in so they cannot be removed.
 */
async function accessMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('parent_id', 'text', (c) => c.references('access_groups.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_groups_parent').on('access_groups').column('parent_id').execute();
  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('access_groups.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull().references('users.subject').onDelete('cascade'))
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'subject'])
    .execute();
  await db.schema.createIndex('group_members_subject').on('group_members').column('subject').execute();
  await db.schema
    .createTable('access_roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope_kind', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('built_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('access_roles_scoped_name', ['scope_kind', 'scope_id', 'name'])
    .execute();
  await db.schema
    .createTable('role_assignments')
    .addColumn('role_id', 'text', (c) => c.notNull().references('access_roles.id').onDelete('cascade'))
    .addColumn('principal_kind', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'text', (c) => c.notNull())
    .addColumn('assigned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_assignments_pk', ['role_id', 'principal_kind', 'principal_id'])
    .execute();
  await db.schema
    .createIndex('role_assignments_principal')
    .on('role_assignments')
    .columns(['principal_kind', 'principal_id'])
    .execute();
  const now = Math.floor(Date.now() / 1000);
  await (db as Kysely<Pick<Database, 'access_roles'>>)
    .insertInto('access_roles')
    .values(
      [
        ['admin', 'Every operation of the admin API'],
        ['user-manager', 'Users, their grants, sessions and factors, invitations'],
        ['auditor', 'Every read of the admin API, no change'],
      ].map(([name, description]) => ({
        id: newId(),
        name: name as string,
        scope_kind: 'server',
        scope_id: '',
        description: description as string,
        built_in: 1,
        created_at: now,
      })),
    )
    .execute();
}

/**
 * 0031: organizations (organizations/). An organization's role names and policy are JSON; a member
 * holds some of those roles; an e-mail domain belongs to one organization at most, and counts for
 * sign-in (JIT membership, home-realm discovery) only once verified. A code and its grant keep the
 * organization chosen at /authorize, so every refresh carries it and removing the member revokes it.
 */
async function organizationsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('organization_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pk', ['organization_id', 'subject'])
    .execute();
  await db.schema.createIndex('organization_members_subject').on('organization_members').column('subject').execute();
  await db.schema
    .createTable('organization_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('authorization_codes').addColumn('organization_id', 'text').execute();
  await db.schema.alterTable('grants').addColumn('organization_id', 'text').execute();
}

/**
 * 0029: links mailed to act on an account (accounts/): each row is the SHA-256 digest of a link's
 * secret, what it does, for whom, until when and whether it was used (once). The index serves
 * "every open link of this user" (a password reset ends the others).
 */
async function accountsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_links_subject').on('account_links').columns(['subject', 'purpose']).execute();
}

/**
 * 0030: how the consent and sign-in pages present a client (RFC 7591 §2 client_uri, policy_uri,
 * tos_uri, logo_uri; §2.2 language-tagged client_name), one row per client that gave any, gone
 * with its client. The logo is kept as fetched at registration (served from this origin).
 */
async function clientPresentationsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_presentations')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('logo', 'text')
    .execute();
}

/**
 * 0027: the mail outbox (mail/). A message is inserted in the transaction of the change that causes
 * it and sent later by a worker of any process; its content (subject line, bodies, links: single-use
 * secrets) is sealed and erased once the message is sent or failed for good, its metadata kept. The
 * index serves the workers' claim of due messages and the queue's depth.
 */
async function mailOutboxMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull())
    .addColumn('lease_token', 'text')
    .addColumn('lease_until_ms', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('finished_ms', 'bigint')
    .execute();
  await db.schema
    .createIndex('mail_outbox_state_due')
    .on('mail_outbox')
    .columns(['state', 'next_attempt_ms'])
    .execute();
}

/**
 * 0025: users found by e-mail address (a federated sign-in whose e-mail is an existing account's,
 * federation/linking.ts). `email_normalized` is the `email` claim lowercased (`normalizedEmail`, in
 * JavaScript, so that both dialects compare alike), null without one, indexed; existing users'
 * claims fill it.
 */
async function userEmailsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_normalized', 'text').execute();
  const users = db as Kysely<Pick<Database, 'users'>>;
  for (const row of await users.selectFrom('users').select(['username', 'claims']).execute()) {
    const email = normalizedEmail((JSON.parse(row.claims) as { email?: unknown }).email);
    if (email !== null)
      await users.updateTable('users').set({ email_normalized: email }).where('username', '=', row.username).execute();
  }
  await db.schema.createIndex('users_email_normalized').on('users').column('email_normalized').execute();
}

/**
 * 0024: grants made by a token exchange that issued a refresh token (RFC 8693 §2.1
 * `requested_token_type` refresh_token). `exchange` (JSON: the `act` claim and the audience every
 * access token of the grant carries) is null for every other grant; `parent_grant_id` names the
 * subject token's grant, whose revocation revokes this one (indexed for that cascade).
 */
async function exchangeGrantsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('exchange', 'text').execute();
  await db.schema.alterTable('grants').addColumn('parent_grant_id', 'text').execute();
  await db.schema.createIndex('grants_parent_grant_id').on('grants').column('parent_grant_id').execute();
}

/**
 * 0021: DPoP (RFC 9449). The key a grant's refresh tokens are bound to (§5, public clients), the key
 * an authorization code is bound to (§10 `dpop_jkt`), the client's `dpop_bound_access_tokens`
 * (§5.2), the proofs seen (`jti` per key, until their window closes: replay refused across processes
 * by the primary key) and the key of the server-provided nonces (§8), shared by every process.
 */
async function dpopMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('dpop_jkt', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('dpop_jkt', 'text').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('dpop_bound_access_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('dpop_proofs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dpop_proofs_expires_at').on('dpop_proofs').column('expires_at').execute();
  await (db as Kysely<Pick<Database, 'server_secrets'>>)
    .insertInto('server_secrets')
    .values({
      name: 'dpop_nonce_key',
      value: randomBytes(32).toString('base64url'),
      created_at: Math.floor(Date.now() / 1000),
    })
    .execute();
}

/**
 * 0022: clients that hold keys, pushed authorization requests, client assertions used once.
 * A client may register its public keys inline (`jwks`, JSON) or by URL (`jwks_uri`), for
 * private_key_jwt (RFC 7523 §2.2) and signed request objects (RFC 9101); `auth_method` names the
 * one method a client is restricted to (null: the method its secret, or its lack of one, implies);
 * `require_par` refuses its authorization requests unless pushed (RFC 9126 §5). A pushed request
 * (RFC 9126 §2) is stored by the digest of its request_uri until used once or expired; `flow_digest`
 * names the sign-in that used it. A client assertion's `jti` is kept until the assertion expires, so
 * that it is used once (RFC 7523 §3 item 7), then removed.
 */
async function clientKeysMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('jwks', 'text').execute();
  await db.schema.alterTable('clients').addColumn('jwks_uri', 'text').execute();
  await db.schema.alterTable('clients').addColumn('auth_method', 'text').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('require_par', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('pushed_authorization_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('flow_digest', 'text', (c) => c.unique())
    .execute();
  await db.schema
    .createIndex('pushed_authorization_requests_expires_at')
    .on('pushed_authorization_requests')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('client_assertion_jtis')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_assertion_jtis_pk', ['client_id', 'jti'])
    .execute();
  await db.schema
    .createIndex('client_assertion_jtis_expires_at')
    .on('client_assertion_jtis')
    .column('expires_at')
    .execute();
}

/**
 * 0019: client ID metadata documents (draft-ietf-oauth-client-id-metadata-document). A client whose
 * `client_id` is the URL of its document is kept in `clients` like any other (its grants, tokens and
 * audit events name it); this table caches the document it came from and when to fetch it again,
 * shared by every process on the store. It goes with its client (ON DELETE CASCADE).
 */
async function clientIdMetadataDocumentsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_id_metadata_documents')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('fresh_until', 'bigint', (c) => c.notNull())
    .addColumn('usable_until', 'bigint', (c) => c.notNull())
    .execute();
}

/**
 * 0017: passkeys (WebAuthn Level 3). A user's credentials: the credential id (base64url, the key of
 * every assertion), its COSE public key (base64url), the signature counter and the backup flags
 * (§6.1 BE/BS) of the last use, the transports the browser reported, a name the user chose, and
 * when it was made and last used; removing the user removes them. The ceremonies' challenges are
 * kept server-side, each bound to the browser session that asked for it (gone with the session),
 * short-lived and deleted by its one use.
 */
async function passkeysMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull().references('users.subject').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('backup_eligible', 'integer', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_subject').on('passkeys').column('subject').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('browser_sessions.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expires_at')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();
}

/**
 * 0014: records belong to someone (docs/rest-api.md, "Whose records"). Each record keeps the `sub` of the
 * access token that created it; a collection declared `x-gatehouse-ownership: owner` (the default)
 * shows a user only their own. Existing records were created when nobody was recorded: they keep
 * no owner (null), which no user's `sub` equals, so they are seen only where every record is (a
 * `shared` collection, a client allowed to read, the admin API). Nobody's records are guessed. The
 * index serves a user's page of their own records: one collection, one owner, in id order.
 */
async function recordOwnersMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('records').addColumn('owner', 'text').execute();
  await db.schema.createIndex('records_owner').on('records').columns(['collection', 'owner', 'id']).execute();
}

/**
 * 0015: one subject per user. Grants, authorization codes and device authorizations named their
 * user by username; they now name it by `users.subject`, the `sub` of every token (RFC 9068 §2.2,
 * OIDC Core §2), so that a rename changes `users.username` alone. Rewritten in place, in the
 * migration's transaction: every refresh token keeps its grant row and works on; an access token
 * minted before carries the username as `sub` and is answered with its grant's subject until it
 * expires (oauth/tokens/access-token-check.ts, introspection). A row whose name is no user's (an operator's
 * grant to a name that was no user, the revoked grants of a removed user) is left as it is: it
 * belongs to no user, and no user can come to own it, since subjects are random.
 */
async function grantSubjectsMigration(db: Kysely<unknown>): Promise<void> {
  for (const name of ['grants', 'authorization_codes', 'device_authorizations']) {
    const table = sql.table(name);
    await sql`UPDATE ${table}
      SET subject = (SELECT u.subject FROM users u WHERE u.username = ${table}.subject)
      WHERE subject IN (SELECT username FROM users)`.execute(db);
  }
}

/**
 * 0013: how each sign-in was made. A browser session records its methods (RFC 8176 `amr` values,
 * each with its time, as JSON text) and whether it is pending (a first factor passed, more
 * required); a code, a device authorization and a grant's authentication carry the `amr` into the
 * ID token (OIDC Core §2). Every row written before was a password sign-in: existing sessions stay
 * signed in (not pending, "pwd" at their `authenticated_at`) and existing codes and grants say "pwd".
 */
async function signInMethodsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('browser_sessions')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('browser_sessions')
    .addColumn('methods', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  await sql`UPDATE browser_sessions SET methods = '[{"method":"pwd","at":' || authenticated_at || '}]'
    WHERE authenticated_at IS NOT NULL`.execute(db);
  for (const table of ['authorization_codes', 'device_authorizations', 'grant_authentications']) {
    await db.schema.alterTable(table).addColumn('amr', 'text').execute();
    await sql`UPDATE ${sql.table(table)} SET amr = 'pwd' WHERE auth_time IS NOT NULL`.execute(db);
  }
}

/**
 * 0010: dynamic client registration (RFC 7591, RFC 7592). The operator's initial access tokens and
 * each registered client's registration access token are stored as SHA-256 digests only. A
 * registration row goes with its client (ON DELETE CASCADE); clients the CLI made have none.
 */
async function clientRegistrationMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registration_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('client_registrations')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('access_token_digest', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .execute();
}

/**
 * 0008: OpenID Connect. Each user gains an opaque, stable subject (a random 128-bit id, never the
 * username) and its claims; every existing user gets its subject here. Grants kept naming their
 * user by username (`grants.subject`) until 0015 rewrote them to the subject.
 */
async function openIdConnectMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('subject', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('claims', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  const users = db as Kysely<{ users: { username: string; subject: string | null } }>;
  for (const { username } of await users.selectFrom('users').select('username').execute())
    await users.updateTable('users').set({ subject: newId() }).where('username', '=', username).execute();
  await db.schema.createIndex('users_subject').on('users').column('subject').unique().execute();
  // The authentication a code carries into the ID token (OIDC Core §3.1.2.1 nonce, §2 auth_time).
  await db.schema.alterTable('authorization_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('auth_time', 'bigint').execute();
  await db.schema.alterTable('clients').addColumn('id_token_alg', 'text').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo(sql`'[]'`))
    .execute();
  // A grant's original authentication, for the ID tokens of its refreshes (OIDC Core §12.2).
  await db.schema
    .createTable('grant_authentications')
    .addColumn('grant_id', 'text', (c) => c.primaryKey().references('grants.id').onDelete('cascade'))
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
}

/**
 * 0018: upstream OpenID Connect federation (docs/federation.md). The providers an operator
 * configured (their client credential sealed like signing keys), the links of local users to an
 * upstream (iss, sub) pair (unique: one pair, one user; removed with the user), and the sign-ins in
 * flight (state digest, single use, bound to the browser session that started them).
 */
async function federationMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_auth', 'text', (c) => c.notNull())
    .addColumn('credential', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('federated_identities')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) =>
      c.notNull().references('users.username').onDelete('cascade').onUpdate('cascade'),
    )
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('federated_identities_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('federated_identities_username').on('federated_identities').column('username').execute();
  await db.schema
    .createTable('federation_states')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

/**
 * 0016: second factors. A user's one-time-code secret (RFC 6238), sealed, with the last
 * time step used (a code is good once); the digests of its recovery codes; whether the user must
 * enrol at the next sign-in; a client's `second_factor` policy (null: the server's); and the secret
 * factor secrets are sealed under when KEY_ENCRYPTION_KEY is not set.
 */
async function secondFactorsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('second_factors')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addPrimaryKeyConstraint('second_factors_pk', ['subject', 'kind'])
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['subject', 'digest'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('second_factor_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('clients').addColumn('second_factor', 'text').execute();
  await (db as Kysely<Pick<Database, 'server_secrets'>>)
    .insertInto('server_secrets')
    .values({
      name: 'factor_sealing_key',
      value: randomBytes(32).toString('base64url'),
      created_at: Math.floor(Date.now() / 1000),
    })
    .execute();
}

/** `apply` runs pending migrations; `check` refuses a database that has any (for `AUTO_MIGRATE=false`). */
export type MigrationMode = 'apply' | 'check';

/**
 * The bookkeeping table, as Kysely's migrator made it (stores migrated by earlier versions have it):
 * one row per applied migration.
 */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Brings the schema to the code's version, or checks it is; returns the migrations applied now.
 * `db` is a transaction in which the dialect already holds its migration lock (SQLite's write lock
 * by BEGIN IMMEDIATE, a PostgreSQL advisory lock): the migrations and their bookkeeping rows commit
 * together or not at all, and a second process waits for the lock and then finds nothing to do.
 *
 * The bookkeeping is done here rather than by Kysely's Migrator, which looks for its tables by
 * introspecting every schema of the database — a query that fails when another schema is dropped
 * meanwhile — and creates them outside the migrations' transaction.
 */
export async function prepareSchema(db: Kysely<unknown>, mode: MigrationMode, steps: DialectSteps): Promise<string[]> {
  const known = migrations(steps);
  const exists = await steps.hasTable(db, MIGRATION_TABLE);
  if (!exists && mode === 'apply') {
    await db.schema
      .createTable(MIGRATION_TABLE)
      .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
      .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
      .execute();
  }
  const rows = exists ? await (db as Kysely<MigrationTables>).selectFrom(MIGRATION_TABLE).select('name').execute() : [];
  const applied = new Set(rows.map((row) => row.name));
  for (const name of applied) {
    if (!(name in known)) throw new Error(`the database has migration ${name}, which this version does not know`);
  }
  const pending = Object.keys(known)
    .sort()
    .filter((name) => !applied.has(name));
  if (mode === 'check') {
    if (pending.length > 0)
      throw new Error(`the database lacks migrations ${pending.join(', ')}: run gatehouse migrate`);
    return [];
  }
  for (const name of pending) {
    try {
      await known[name]?.up(db);
    } catch (error) {
      throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, {
        cause: error,
      });
    }
    await (db as Kysely<MigrationTables>)
      .insertInto(MIGRATION_TABLE)
      .values({ name, timestamp: new Date().toISOString() })
      .execute();
  }
  return pending;
}

/** The migrations of the code that `db` lacks: one read of the bookkeeping table, nothing written. */
export async function pendingMigrations(db: Kysely<unknown>, steps: DialectSteps): Promise<string[]> {
  const rows = await (db as Kysely<MigrationTables>).selectFrom(MIGRATION_TABLE).select('name').execute();
  const applied = new Set(rows.map((row) => row.name));
  return Object.keys(migrations(steps))
    .sort()
    .filter((name) => !applied.has(name));
}

interface MigrationTables {
  kysely_migration: { name: string; timestamp: string };
}
