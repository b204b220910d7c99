// Prepares a Gatehouse SQLite database before the server starts, through the server's own built
// code (@gatehouse/server dist), in two steps:
//
//   node setup/gatehouse.mjs client <db> <stored>   the bench client (confidential, contacts:read
//       contacts:write), then, for the growth scenario, refresh tokens up to <stored>; prints
//       {"clientId", "clientSecret", "fillSeconds"}. The database can then be copied for each run.
//   node setup/gatehouse.mjs chains <db> <chains>   <chains> grants of one user issued as `gatehouse
//       grants issue` issues them, each with its first refresh token, and an access token with
//       contacts:write; prints {"tokens", "accessToken"}.
//   node setup/gatehouse.mjs roles-chains <db> <chains>   the same for another user, a member of
//       GROUPS groups with ROLES roles of the REST API (half assigned to it, half through its
//       groups), so each access token carries `groups` and `roles` (RFC 9068 §2.2.3.1).
//   node setup/gatehouse.mjs console-users <db> <users> [groups]   <users> users (and [groups]
//       groups) and an admin client's read-only token for the admin API; prints {"accessToken"}.
//   node setup/gatehouse.mjs oidc-chains <db> <chains>   the same, as OpenID Connect grants: scope
//       `openid` too, and the user's password sign-in recorded for each grant as a code exchange
//       records it (OIDC Core §12.2: every refresh then answers a new ID token with its auth_time).
//
// The growth fill is written straight through better-sqlite3 (on PostgreSQL, by two INSERT … SELECT) in one transaction: families of
// FAMILY_SIZE refresh tokens in grants of the bench client, each token the SHA-256 digest of 32
// random bytes as Gatehouse stores it, all but the newest used once and superseded — the history
// rotation leaves behind. 1,000,000 tokens take about ten seconds.
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { addUser, createContext, issueOperatorGrant, openStore, registerClient } from '@gatehouse/server';

const [step, filename, countArg = '0', replayWindowArg = '0'] = process.argv.slice(2);
const CLIENT_ID = 'bench';
const SCOPE = ['contacts:read', 'contacts:write'];
/** The client may also be granted `openid` (the oidc-chains); the other chains are granted SCOPE alone. */
const CLIENT_SCOPE = ['openid', ...SCOPE];
const FAMILY_SIZE = 5;
const CHAIN_USER = 'bench-user';
const ROLES_USER = 'bench-roles-user';
const GROUPS = 50;
const ROLES = 20;
/** The built-in REST API, whose roles a token for this server carries (access/claims.ts). */
const REST_API = '/v2';
const DAY = 24 * 60 * 60;
const SERVICE_CLIENT_ID = 'bench-service';
const PUBLIC_CLIENT_ID = 'bench-browser';
const REDIRECT_URI = 'https://client.example/callback';
const SIGN_IN_USER = 'bench-sign-in';
const SIGN_IN_PASSWORD = 'correct horse battery staple';
const ADMIN_CLIENT_ID = 'bench-operator';
/** The console scenarios' users: user-000000 … user-099999, in username order. */
const consoleUsername = (i) => `user-${String(i).padStart(6, '0')}`;
/** The setup records no audit event; were it to, the events would be stored and logged nowhere else. */
const CONTEXT_OPTIONS = { auditSink: () => {} };

if (step === 'client') {
  const store = await openStore(storeUrl(filename));
  const context = await createContext(store, 'http://localhost', CONTEXT_OPTIONS);
  const now = context.clock.now();
  const { secret } = await registerClient(store, {
    id: CLIENT_ID, name: 'Benchmark', scope: CLIENT_SCOPE, redirectUris: ['https://client.example/callback'], accessTokenTtl: DAY,
    replayWindow: Number(replayWindowArg),
  }, now);
  // The client credentials scenario's service account, and the sign-in and code-flow scenarios'
  // public client (PKCE) and user.
  const { secret: serviceSecret } = await registerClient(store, {
    id: SERVICE_CLIENT_ID, name: 'Benchmark service', scope: ['contacts:read'], grantTypes: ['client_credentials'], accessTokenTtl: DAY,
  }, now);
  await registerClient(store, {
    id: PUBLIC_CLIENT_ID, name: 'Benchmark browser app', scope: ['contacts:read'], redirectUris: [REDIRECT_URI], public: true,
  }, now);
  await addUser(store, SIGN_IN_USER, SIGN_IN_PASSWORD, now);
  await store.close();
  const started = performance.now();
  if (Number(countArg) > 0) {
    if (isPostgres(filename)) await prefillPostgres(Number(countArg), now);
    else prefill(Number(countArg), now);
  }
  process.stdout.write(`${JSON.stringify({
    clientId: CLIENT_ID, clientSecret: secret, fillSeconds: (performance.now() - started) / 1000,
    serviceClientId: SERVICE_CLIENT_ID, serviceClientSecret: serviceSecret,
    publicClientId: PUBLIC_CLIENT_ID, redirectUri: REDIRECT_URI, username: SIGN_IN_USER, password: SIGN_IN_PASSWORD,
  })}\n`);
} else if (step === 'chains' || step === 'oidc-chains' || step === 'roles-chains') {
  const store = await openStore(storeUrl(filename));
  const context = await createContext(store, 'http://localhost', CONTEXT_OPTIONS);
  const openid = step === 'oidc-chains';
  const user = step === 'roles-chains' ? ROLES_USER : CHAIN_USER;
  const tokens = [];
  let accessToken = '';
  // A grant is a user's (its tokens' sub is the user's subject): one user holds every chain.
  if (!(await store.findUser(user))) await addUser(store, user, randomBytes(16).toString('hex'), context.clock.now());
  if (step === 'roles-chains') await giveGroupsAndRoles(store, (await store.findUser(user)).subject, context.clock.now());
  for (let i = 0; i < Number(countArg); i++) {
    const issued = await issueOperatorGrant(context, CLIENT_ID, user, openid ? ['openid', ...SCOPE] : SCOPE);
    // What a code exchange after a password sign-in stores beside its grant (its auth_time and amr).
    if (openid) await store.insertGrantAuthentication(issued.grant_id, context.clock.now(), ['pwd']);
    tokens.push(issued.refresh_token);
    accessToken = issued.access_token;
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ tokens, accessToken })}\n`);
} else if (step === 'dpop-chains') {
  // A public client whose grants are bound to one DPoP key (RFC 9449 §5), as a code flow with a proof binds them.
  const store = await openStore(`sqlite://${filename}`);
  const context = await createContext(store, 'http://localhost', CONTEXT_OPTIONS);
  const clientId = 'bench-dpop';
  if (!(await store.findClient(clientId)))
    await registerClient(store, { id: clientId, name: 'Benchmark DPoP', public: true, scope: SCOPE,
      redirectUris: ['https://client.example/callback'], accessTokenTtl: DAY }, context.clock.now());
  if (!(await store.findUser(CHAIN_USER))) await addUser(store, CHAIN_USER, randomBytes(16).toString('hex'), context.clock.now());
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const dpopJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  // RFC 7638: the members of an EC key in lexicographic order.
  const jkt = createHash('sha256').update(JSON.stringify({ crv: 'P-256', kty: 'EC', x: dpopJwk.x, y: dpopJwk.y })).digest('base64url');
  const tokens = [];
  const grants = [];
  for (let i = 0; i < Number(countArg); i++) {
    const issued = await issueOperatorGrant(context, clientId, CHAIN_USER, SCOPE);
    tokens.push(issued.refresh_token);
    grants.push(issued.grant_id);
  }
  await store.close();
  const require = createRequire(import.meta.resolve('@gatehouse/server'));
  const db = new (require('better-sqlite3'))(filename);
  const bind = db.prepare('update grants set dpop_jkt = ? where id = ?');
  db.transaction(() => grants.forEach((id) => bind.run(jkt, id)))();
  db.close();
  process.stdout.write(`${JSON.stringify({ tokens, accessToken: '', dpopJwk, clientId })}\n`);
} else if (step === 'console-users') {
  // The console's list pages: <count> users (user-000000, user-000001, …) and an admin client's
  // read-only token, as the console's calls to GET /admin/v1/users carry an operator's.
  const count = Number(countArg);
  const store = await openStore(storeUrl(filename));
  const context = await createContext(store, 'http://localhost', CONTEXT_OPTIONS);
  const now = context.clock.now();
  const scope = ['gatehouse:admin:read'];
  await registerClient(store, {
    id: ADMIN_CLIENT_ID, name: 'Benchmark operator', admin: true, grantTypes: ['client_credentials'], scope, accessTokenTtl: DAY,
  }, now);
  const accessToken = context.accessTokens.mint({ subject: ADMIN_CLIENT_ID, clientId: ADMIN_CLIENT_ID, scope, grantId: null, ttl: DAY, now });
  const first = consoleUsername(0);
  await addUser(store, first, SIGN_IN_PASSWORD, now);
  const model = await store.findUser(first);
  for (let start = 1; start < count; start += 10_000)
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(start + 10_000, count); i++)
        await tx.insertUserIfAbsent({ ...model, username: consoleUsername(i), subject: randomBytes(16).toString('hex') });
    });
  const groups = Number(process.argv[5] ?? '0');
  for (let start = 0; start < groups; start += 10_000)
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(start + 10_000, groups); i++)
        await tx.insertGroupIfAbsent({ id: randomBytes(16).toString('hex'), name: `group-${String(i).padStart(5, '0')}`, parentId: null, createdAt: now });
    });
  await store.close();
  process.stdout.write(`${JSON.stringify({ accessToken })}\n`);
} else {
  process.stderr.write('usage: gatehouse.mjs client <db> <stored> [replay window s] | chains|roles-chains|oidc-chains|dpop-chains|console-users <db> <chains|users> [groups]\n');
  process.exit(2);
}

/**
 * GROUPS groups with `subject` a member of each, and ROLES roles of the REST API: the even ones
 * assigned to the user, the odd ones each to one of its groups. Through the store's own writes, as
 * `gatehouse groups` and `gatehouse roles` make them.
 */
async function giveGroupsAndRoles(store, subject, now) {
  for (let i = 0; i < GROUPS; i++) {
    const id = `bench-group-${i}`;
    await store.insertGroupIfAbsent({ id, name: `team-${String(i).padStart(2, '0')}`, parentId: null, createdAt: now });
    await store.addGroupMember(id, subject, now);
  }
  for (let i = 0; i < ROLES; i++) {
    const id = `bench-role-${i}`;
    const scope = { kind: 'api', audience: REST_API };
    await store.insertRoleIfAbsent({ id, name: `contacts-role-${String(i).padStart(2, '0')}`, scope, description: null, builtIn: false, createdAt: now });
    await store.assignRole(id, i % 2 === 0 ? { kind: 'user', id: subject } : { kind: 'group', id: `bench-group-${i}` }, now);
  }
}

function isPostgres(name) {
  return /^postgres(ql)?:\/\//.test(name);
}

/** A PostgreSQL URL as given; a file name as an SQLite store. */
function storeUrl(name) {
  return isPostgres(name) ? name : `sqlite://${name}`;
}

/**
 * The growth fill on PostgreSQL: the same families as prefill's, made by the database itself in two
 * statements (generate_series), each token id a SHA-256 digest in hex as Gatehouse stores it, rows
 * inserted in id order so the primary keys are built by appending. 1,000,000 tokens take about a
 * minute on a quiet machine.
 */
async function prefillPostgres(count, at) {
  const require = createRequire(import.meta.resolve('@gatehouse/server'));
  const { Client } = require('pg');
  const client = new Client({ connectionString: filename });
  await client.connect();
  const seed = randomBytes(16).toString('hex');
  const families = Math.ceil(count / FAMILY_SIZE);
  const token = (index) => `encode(sha256(convert_to($1 || ':token:' || (${index}), 'UTF8')), 'hex')`;
  const grant = (family) => `encode(substring(sha256(convert_to($1 || ':grant:' || (${family}), 'UTF8')) from 1 for 16), 'hex')`;
  const last = `least($2::bigint, (f + 1) * ${FAMILY_SIZE}) - 1`;
  try {
    await client.query('BEGIN');
    await client.query(
      `insert into grants (id, client_id, subject, scope, created_at, expires_at, rotation_count, head_token_id, previous_token_id)
       select ${grant('f')}, $3, 'stored-' || ${grant('f')}, $4, $5, $6, (${last}) - f * ${FAMILY_SIZE}, ${token(last)},
         case when ${last} > f * ${FAMILY_SIZE} then ${token(`${last} - 1`)} end
       from generate_series(0, $7::bigint - 1) as f order by 1`,
      [seed, count, CLIENT_ID, SCOPE.join(' '), at, at + 90 * DAY, families],
    );
    await client.query(
      `insert into refresh_tokens (id, grant_id, use_count, issued_at, expires_at)
       select ${token('i')}, ${grant(`i / ${FAMILY_SIZE}`)},
         case when i < least($2::bigint, (i / ${FAMILY_SIZE} + 1) * ${FAMILY_SIZE}) - 1 then 1 else 0 end, $3, $4
       from generate_series(0, $2::bigint - 1) as i order by 1`,
      [seed, count, at, at + 14 * DAY],
    );
    await client.query('COMMIT');
    // As prefill's WAL checkpoint: the fill's writes (and autovacuum's first pass over them) are done
    // before the load starts, not paid for by its refreshes. CHECKPOINT needs a superuser or
    // pg_checkpoint; without one the writes are left to the next scheduled checkpoint.
    await client.query('VACUUM (ANALYZE) grants, refresh_tokens');
    await client.query('CHECKPOINT').catch(() => {});
  } finally {
    await client.end();
  }
}

function prefill(count, at) {
  // better-sqlite3 as @gatehouse/server itself resolves it.
  const require = createRequire(import.meta.resolve('@gatehouse/server'));
  const Database = require('better-sqlite3');
  const families = Math.ceil(count / FAMILY_SIZE);
  const random = randomBytes(32 * count + 16 * families);
  const tokenIds = Array.from({ length: count }, (_, i) =>
    createHash('sha256').update(random.subarray(32 * i, 32 * i + 32).toString('base64url'), 'utf8').digest('hex'));
  const grantIds = Array.from({ length: families }, (_, i) => random.subarray(32 * count + 16 * i, 32 * count + 16 * i + 16).toString('hex'));
  // Both sorted, and a family takes consecutive tokens: every index is then built by appending
  // rather than by random page splits (minutes become seconds). Which digests share a family does
  // not matter to a lookup.
  tokenIds.sort();
  grantIds.sort();
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  const insertGrant = db.prepare(`insert into grants (id, client_id, subject, scope, created_at, expires_at, rotation_count,
    head_token_id, previous_token_id, revoked_at, revoked_reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?, null, null)`);
  const insertToken = db.prepare('insert into refresh_tokens (id, grant_id, use_count, issued_at, expires_at) values (?, ?, ?, ?, ?)');
  const scope = SCOPE.join(' ');
  db.transaction(() => {
    grantIds.forEach((grantId, family) => {
      const ids = tokenIds.slice(family * FAMILY_SIZE, Math.min(count, (family + 1) * FAMILY_SIZE));
      const last = ids.length - 1;
      insertGrant.run(grantId, CLIENT_ID, `stored-${grantId}`, scope, at, at + 90 * DAY, last, ids[last], last > 0 ? ids[last - 1] : null);
      ids.forEach((id, i) => insertToken.run(id, grantId, i < last ? 1 : 0, at, at + 14 * DAY));
    });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
