import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * The steps of the shared migrations that differ by dialect: each dialect folder gives its own
 * (`sqlite/migrations.ts`, `postgres/migrations.ts`), so this file never asks which database it is on.
 */
export interface DialectSteps {
  /** 0006: the table of rate-limit buckets, on a dialect that keeps them in the database. */
  createRateLimitsTable(db: Kysely<unknown>): Promise<void>;
}

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
});

/** `apply` runs pending migrations; `check` refuses a database that has any (for `AUTO_MIGRATE=false`). */
export type MigrationMode = 'apply' | 'check';

/** Where and how a dialect runs the migrations. */
export interface SchemaOptions {
  readonly steps: DialectSteps;
  /**
   * On PostgreSQL, the schema of the migration tables: without it Kysely looks for them in every
   * schema and mistakes another schema's for ours.
   */
  readonly schema?: string | undefined;
}

/**
 * Brings the schema to the code's version, or checks it is; returns the migrations applied now.
 * The dialect makes the run atomic and exclusive (each migration commits with its bookkeeping row,
 * and two processes never migrate at once): PostgreSQL by Kysely's transaction and advisory lock,
 * SQLite by a BEGIN IMMEDIATE around the whole run (`sqlite/migrations.ts`).
 */
export async function prepareSchema(
  db: Kysely<unknown>,
  mode: MigrationMode,
  options: SchemaOptions,
): Promise<string[]> {
  if (mode === 'apply') return migrateToLatest(db, options);
  const known = await migratorFor(db, options).getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name);
  if (pending.length > 0) throw new Error(`the database lacks migrations ${pending.join(', ')}: run gatehouse migrate`);
  return [];
}

function migratorFor(db: Kysely<unknown>, { steps, schema }: SchemaOptions): Migrator {
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations(steps)) };
  return new Migrator({ db, provider, ...(schema === undefined ? {} : { migrationTableSchema: schema }) });
}

/** Applies every pending migration; throws with the failing migration's name. */
async function migrateToLatest(db: Kysely<unknown>, options: SchemaOptions): Promise<string[]> {
  const { error, results } = await migratorFor(db, options).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(`migration ${failed} failed: ${message}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
