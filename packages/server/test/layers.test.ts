/**
 * The server's layers. Every folder of src/ is declared below with the folders it may import; imports
 * run downwards only: shared primitives at the bottom, the store and the audit trail above them, the
 * HTTP, JSON-API and HTML-page machinery above those, then the features (oauth/, api/, admin-api/,
 * authorize/, pages/, health/), and the CLI on top. The files at the root of src/ (app.ts, server.ts,
 * config.ts, index.ts) compose the folders; of them a feature may import only the type of the server's
 * context (context.ts), and oauth/ not even that: it declares its needs in oauth/services.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const withoutComments = (code: string): string =>
  code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** The files of src/ a file imports (relative specifiers only), as paths relative to src/. */
function localImportsOf(file: string): string[] {
  const code = withoutComments(readFileSync(file, 'utf8'));
  return [...code.matchAll(/\b(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) =>
    relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))),
  );
}

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
  abuse: ['primitives', 'store'],
  webauthn: ['primitives', 'store'],
  http: ['primitives', 'store', 'audit'],
  html: ['primitives', 'store', 'http'],
  oauth: ['primitives', 'store', 'audit', 'users', 'abuse', 'http', 'outbound', 'telemetry'],
  'json-api': ['primitives', 'http', 'oauth', 'context.ts'],
  health: ['primitives', 'store', 'http', 'oauth'],
  api: ['primitives', 'store', 'http', 'json-api', 'telemetry', 'context.ts'],
  authorize: [
    'primitives',
    'store',
    'audit',
    'users',
    'factors',
    'abuse',
    'http',
    'html',
    'oauth',
    'webauthn',
    'context.ts',
  ],
  pages: ['primitives', 'http', 'html'],
  federation: [
    'primitives',
    'store',
    'audit',
    'users',
    'factors',
    'abuse',
    'webauthn',
    'http',
    'html',
    'oauth',
    'authorize',
    'context.ts',
  ],
  'admin-api': [
    'primitives',
    'store',
    'audit',
    'users',
    'factors',
    'http',
    'oauth',
    'json-api',
    'federation',
    'context.ts',
  ],
  cli: [
    'primitives',
    'telemetry',
    'store',
    'audit',
    'users',
    'factors',
    'http',
    'oauth',
    'pages',
    'federation',
    'config.ts',
    'context.ts',
    'server.ts',
  ],
};

const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: localImportsOf(file) }));

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
