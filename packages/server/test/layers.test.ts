/**
 * The server's layers. Every folder of src/ is declared below with the folders it may import; imports
 * run downwards only: shared primitives at the bottom, the store and the audit trail above them, the
 * HTTP, JSON-API and HTML-page machinery above those, then the features (oauth/, api/, admin-api/,
 * authorize/, pages/, health/), and the CLI on top. The files at the root of src/ (app.ts, server.ts,
 * config.ts, index.ts) compose the folders; of them a feature may import only the type of the server's
 * context (context.ts), and oauth/ not even that: it declares its needs in oauth/services.ts.
 * Inside oauth/, each capability is a folder, declared in a second table with the folders it may use,
 * and reached from outside only through its index.ts. No file reaches itself through imports that run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, test } from 'node:test';
import { cyclesOf, localImportsOf, SRC, sourceFiles, valueImportsOf, withoutComments } from './_source-imports.js';

/** The folder of src/ a path is in, or the file's own name for the root files. */
const unitOf = (path: string): string => path.split('/')[0] as string;

/**
 * Every folder of src/ and the units it may import besides itself, lowest first. A new folder is a
 * new line here; a test below fails until it is declared.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  primitives: [],
  outbound: ['primitives'],
  telemetry: [],
  store: ['primitives', 'telemetry'],
  audit: ['primitives', 'store'],
  users: ['primitives', 'store', 'audit'],
  factors: ['primitives', 'store', 'audit'],
  access: ['primitives', 'store', 'audit'],
  // Organizations (tenants): their members, domains and policy; the sign-in, /authorize and tokens ask it.
  organizations: ['primitives', 'store', 'audit', 'users'],
  abuse: ['primitives', 'store'],
  webauthn: ['primitives', 'store'],
  http: ['primitives', 'store', 'audit'],
  // The message catalog of the pages (and, later, of the mails): below the page machinery.
  i18n: ['primitives'],
  html: ['primitives', 'store', 'http', 'i18n'],
  // The operator's brand: its settings checked, its images fetched (outbound) and made into the pages' Brand.
  branding: ['primitives', 'outbound', 'html'],
  mail: ['primitives', 'store', 'audit', 'html'],
  oauth: [
    'primitives',
    'store',
    'audit',
    'users',
    'access',
    'organizations',
    'abuse',
    'http',
    'i18n',
    'outbound',
    'telemetry',
  ],
  'json-api': ['primitives', 'http', 'oauth', 'context.ts'],
  health: ['primitives', 'store', 'http', 'oauth'],
  // The REST API asks the access model which roles a caller holds (x-required-roles).
  api: ['primitives', 'store', 'access', 'http', 'json-api', 'telemetry', 'context.ts'],
  authorize: [
    'primitives',
    'store',
    'audit',
    'users',
    'organizations',
    'factors',
    'abuse',
    'http',
    'i18n',
    'html',
    'oauth',
    'webauthn',
    'context.ts',
  ],
  pages: ['primitives', 'http', 'i18n', 'html'],
  federation: [
    'primitives',
    'outbound',
    'store',
    'audit',
    'users',
    'organizations',
    'factors',
    'abuse',
    'webauthn',
    'http',
    'html',
    'oauth',
    'authorize',
    'context.ts',
  ],
  // Self-service accounts: pages served on the authorization pages' context, mails through the outbox.
  accounts: [
    'primitives',
    'store',
    'audit',
    'users',
    'factors',
    'webauthn',
    'abuse',
    'http',
    'i18n',
    'html',
    'mail',
    'authorize',
    'context.ts',
  ],
  'admin-api': [
    'primitives',
    'store',
    'audit',
    'users',
    'access',
    'organizations',
    'factors',
    'http',
    'oauth',
    'json-api',
    'federation',
    'accounts',
    'context.ts',
  ],
  // The admin console's files and its client: a feature, like the admin API it calls.
  console: ['primitives', 'store', 'access', 'http', 'html', 'oauth', 'context.ts'],
  cli: [
    'primitives',
    'telemetry',
    'store',
    'audit',
    'users',
    'access',
    'organizations',
    'factors',
    'http',
    'oauth',
    'pages',
    'federation',
    'mail',
    'accounts',
    'config.ts',
    'context.ts',
    'server.ts',
  ],
};

/**
 * The folders of oauth/ and the ones each may import besides itself, lowest first: the capabilities,
 * then the two tables (grants/, endpoints/) that are built from them. `services.ts` (the root of
 * oauth/ declares there what its code needs of the server) may be imported as a type only. Another
 * folder's files are reached only through its index.ts, except a table's, whose files are its entries.
 * A new folder is a new line here; a test below fails until it is declared.
 */
const OAUTH_MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  keys: [],
  'sender-constraints': ['keys'],
  tokens: ['keys', 'sender-constraints', 'services.ts'],
  clients: ['keys', 'sender-constraints', 'tokens'],
  'authorization-requests': ['keys', 'sender-constraints', 'tokens', 'clients', 'services.ts'],
  'token-exchange': ['tokens', 'clients'],
  'client-id-metadata': ['keys', 'clients'],
  discovery: [],
  device: ['sender-constraints', 'tokens'],
  'grant-administration': ['tokens', 'services.ts'],
  grants: ['sender-constraints', 'tokens', 'clients', 'token-exchange', 'device', 'services.ts'],
  endpoints: [
    'keys',
    'sender-constraints',
    'tokens',
    'clients',
    'authorization-requests',
    'client-id-metadata',
    'device',
    'grant-administration',
    'grants',
    'services.ts',
  ],
};
const OAUTH_TABLES: readonly string[] = ['grants', 'endpoints'];

/** The folder of oauth/ a path is in, the file's own name at the root of oauth/, undefined outside oauth/. */
function oauthUnitOf(path: string): string | undefined {
  const [top, unit] = path.split('/');
  return top === 'oauth' ? unit : undefined;
}

/** Why an import of `target` by `from` breaks the order of oauth/, or undefined if it does not. */
function oauthViolation(from: string, target: string): string | undefined {
  const [unit, targetUnit] = [oauthUnitOf(from), oauthUnitOf(target)];
  if (targetUnit === undefined || unit === targetUnit) return undefined;
  const isFolder = target.split('/').length > 2;
  if (isFolder && !OAUTH_TABLES.includes(targetUnit) && target !== `oauth/${targetUnit}/index.ts`)
    return `${from} -> ${target}: not through oauth/${targetUnit}/index.ts`;
  if (unit === undefined || !(unit in OAUTH_MAY_IMPORT)) return undefined;
  return OAUTH_MAY_IMPORT[unit]?.includes(targetUnit) ? undefined : `${from} -> ${target}`;
}

const files = sourceFiles(SRC).map((file) => ({
  path: relative(SRC, file),
  imports: localImportsOf(file),
  valueImports: valueImportsOf(file),
}));

/** Why an import of `target` by `from` breaks the layers, or undefined if it does not. */
function violation(from: string, target: string): string | undefined {
  const [unit, targetUnit] = [unitOf(from), unitOf(target)];
  if (unit === targetUnit || !(unit in MAY_IMPORT)) return undefined;
  return MAY_IMPORT[unit]?.includes(targetUnit) ? undefined : `${from} -> ${target}`;
}

describe('server layers', () => {
  test('every folder of src/ is declared in the layers table', () => {
    const folders = new Set(
      files
        .map((f) => f.path)
        .filter((p) => p.includes('/'))
        .map(unitOf),
    );
    assert.deepEqual([...folders].filter((folder) => !(folder in MAY_IMPORT)).sort(), []);
    assert.deepEqual(
      Object.keys(MAY_IMPORT).filter((folder) => !folders.has(folder)),
      [],
    );
  });

  test('the table is an order: a folder may import only folders declared before it', () => {
    const seen = new Set<string>();
    for (const [folder, allowed] of Object.entries(MAY_IMPORT)) {
      for (const target of allowed)
        if (!target.endsWith('.ts')) assert.ok(seen.has(target), `${folder} may import ${target}, declared after it`);
      seen.add(folder);
    }
  });

  for (const folder of Object.keys(MAY_IMPORT)) {
    test(`src/${folder} imports nothing from a layer above it`, () => {
      const offending = files
        .filter((f) => unitOf(f.path) === folder)
        .flatMap((f) => f.imports.map((target) => violation(f.path, target)))
        .filter((v) => v !== undefined);
      assert.deepEqual(offending, []);
    });
  }

  test('the imports that ran upwards before the layers covered every folder would fail again', () => {
    for (const [from, target] of [
      ['oauth/clients/client-metadata.ts', 'authorize/redirect-uri.ts'],
      ['abuse/policies.ts', 'oauth/endpoints/index.ts'],
      ['http/client-errors.ts', 'oauth/endpoints/index.ts'],
      ['http/health.ts', 'health/readiness.ts'],
      ['admin-api/caller.ts', 'api/bearer.ts'],
      ['pages/landing.ts', 'authorize/pages.ts'],
      ['http/metrics.ts', 'users/users.ts'],
      ['http/problem-pages.ts', 'html/layout.ts'],
    ] as const)
      assert.ok(violation(from, target), `${from} -> ${target} is allowed`);
  });

  test("a folder imports the server's context as a type only: the root composes, the folders do not run it", () => {
    const offending = sourceFiles(SRC)
      .filter((file) => relative(SRC, file).includes('/'))
      .flatMap((file) =>
        withoutComments(readFileSync(file, 'utf8'))
          .split('\n')
          .filter((line) => /from '(\.\.\/)+context\.js'/.test(line) && !/^import type /.test(line))
          .map((line) => `${relative(SRC, file)}: ${line}`),
      );
    assert.deepEqual(offending, []);
  });

  test('oauth/ and context.ts do not import each other: oauth/ declares its needs in services.ts', () => {
    const offending = files
      .filter((f) => unitOf(f.path) === 'oauth')
      .flatMap((f) => f.imports.filter((t) => t === 'context.ts').map((t) => `${f.path} -> ${t}`));
    assert.deepEqual(offending, []);
  });
});

/** The folders of oauth/ that the paths of src/ hold and the oauth table does not declare. */
const undeclaredOauthFolders = (paths: readonly string[]): string[] => [
  ...new Set(
    paths
      .filter((p) => p.startsWith('oauth/') && p.split('/').length > 2)
      .map((p) => oauthUnitOf(p) as string)
      .filter((folder) => !(folder in OAUTH_MAY_IMPORT)),
  ),
];

/** Which folder of oauth/ imports which (types included), from the imports of `sources`. */
function oauthFolderGraph(sources: readonly { path: string; imports: readonly string[] }[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const isFolder = (path: string): boolean => path.startsWith('oauth/') && path.split('/').length > 2;
  for (const { path, imports } of sources.filter((f) => isFolder(f.path))) {
    const edges = graph.get(oauthUnitOf(path) as string) ?? new Set<string>();
    graph.set(oauthUnitOf(path) as string, edges);
    for (const target of imports.filter(isFolder))
      if (oauthUnitOf(target) !== oauthUnitOf(path)) edges.add(oauthUnitOf(target) as string);
  }
  return graph;
}

describe('the capabilities of oauth/', () => {
  test('every folder of oauth/ is declared in the oauth table, and every declared folder exists', () => {
    assert.deepEqual(undeclaredOauthFolders(files.map((f) => f.path)), []);
    const folders = new Set(files.map((f) => f.path).filter((p) => p.startsWith('oauth/') && p.split('/').length > 2));
    const present = new Set([...folders].map((p) => oauthUnitOf(p)));
    assert.deepEqual(
      Object.keys(OAUTH_MAY_IMPORT).filter((folder) => !present.has(folder)),
      [],
    );
  });

  test('the oauth table is an order: a folder may import only folders declared before it', () => {
    const seen = new Set<string>();
    for (const [folder, allowed] of Object.entries(OAUTH_MAY_IMPORT)) {
      for (const target of allowed)
        if (!target.endsWith('.ts')) assert.ok(seen.has(target), `${folder} may import ${target}, declared after it`);
      seen.add(folder);
    }
  });

  test('every folder of oauth/ has an index.ts: what other code may use of it', () => {
    const paths = new Set(files.map((f) => f.path));
    assert.deepEqual(
      Object.keys(OAUTH_MAY_IMPORT).filter((folder) => !paths.has(`oauth/${folder}/index.ts`)),
      [],
    );
  });

  test('code outside a capability of oauth/ imports it only through its index.ts', () => {
    const offending = files
      .filter((f) => oauthUnitOf(f.path) === undefined || !(oauthUnitOf(f.path) as string).endsWith('.ts'))
      .flatMap((f) => f.imports.map((target) => oauthViolation(f.path, target)))
      .filter((v) => v?.includes('not through'));
    assert.deepEqual(offending, []);
  });

  for (const folder of Object.keys(OAUTH_MAY_IMPORT)) {
    test(`oauth/${folder} imports only the folders of oauth/ it declares`, () => {
      const offending = files
        .filter((f) => oauthUnitOf(f.path) === folder && f.path.split('/').length > 2)
        .flatMap((f) => f.imports.map((target) => oauthViolation(f.path, target)))
        .filter((v) => v !== undefined);
      assert.deepEqual(offending, []);
    });
  }

  test('a folder of oauth/ imports services.ts as a type only: the root of oauth/ composes, its folders do not', () => {
    const offending = files
      .filter((f) => f.path.startsWith('oauth/') && f.path.split('/').length > 2)
      .flatMap((f) => f.valueImports.filter((t) => t === 'oauth/services.ts').map((t) => `${f.path} -> ${t}`));
    assert.deepEqual(offending, []);
  });

  test('no folder of oauth/ imports another that imports it back, types included', () => {
    assert.deepEqual(cyclesOf(oauthFolderGraph(files)), []);
  });

  test('an undeclared folder, an import past an index.ts, an upward import and a cycle would each fail', () => {
    assert.deepEqual(undeclaredOauthFolders(['oauth/tokens/jwt.ts', 'oauth/webhooks/index.ts']), ['webhooks']);
    assert.ok(oauthViolation('oauth/clients/client-metadata.ts', 'oauth/tokens/scope.ts')?.includes('not through'));
    assert.ok(oauthViolation('authorize/consent.ts', 'oauth/tokens/scope.ts')?.includes('not through'));
    assert.ok(oauthViolation('oauth/keys/keys.ts', 'oauth/tokens/index.ts'));
    // The import that ran up from a capability into the grant table before the folders were declared.
    assert.ok(oauthViolation('oauth/client-id-metadata/client-id-metadata.ts', 'oauth/grants/device-code.ts'));
    const circle = [
      { path: 'oauth/clients/clients.ts', imports: ['oauth/tokens/index.ts'] },
      { path: 'oauth/tokens/scope.ts', imports: ['oauth/clients/index.ts'] },
    ];
    assert.deepEqual(cyclesOf(oauthFolderGraph(circle)), [['clients', 'tokens']]);
  });
});

describe('import cycles', () => {
  test('no file of src/ reaches itself through imports that run (type-only imports are erased)', () => {
    const graph = new Map(files.map((f) => [f.path, f.valueImports]));
    assert.deepEqual(cyclesOf(graph), []);
  });

  test('the circle that ran between the sign-in, consent and passkey routes would be found again', () => {
    const before = new Map([
      ['authorize/login.ts', ['authorize/consent.ts', 'authorize/passkey.ts']],
      ['authorize/consent.ts', ['authorize/login.ts']],
      ['authorize/passkey.ts', ['authorize/consent.ts', 'authorize/login.ts']],
    ]);
    assert.deepEqual(cyclesOf(before), [['authorize/consent.ts', 'authorize/login.ts', 'authorize/passkey.ts']]);
  });
});
