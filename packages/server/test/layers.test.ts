/**
 * The server's layers: shared primitives at the bottom, the store and the audit trail above them,
 * the features (oauth/, api/, authorize/, users/, abuse/) on top. Imports run downwards only, and
 * oauth/ declares what it needs (oauth/services.ts) instead of importing the server's context.
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

const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: localImportsOf(file) }));
const inFolder = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

/** What each lower layer may import from src/, besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  primitives: [],
  store: ['primitives'],
  audit: ['store', 'primitives'],
};

describe('server layers', () => {
  test('the walk sees the layers', () => {
    for (const folder of ['primitives', 'store', 'audit', 'oauth'])
      assert.ok(
        files.some((f) => inFolder(f.path, folder)),
        `no file under src/${folder}`,
      );
  });

  for (const [layer, allowed] of Object.entries(MAY_IMPORT)) {
    test(`src/${layer} imports nothing from a layer above it`, () => {
      const offending = files
        .filter((f) => inFolder(f.path, layer))
        .flatMap((f) =>
          f.imports
            .filter((target) => !inFolder(target, layer) && !allowed.some((folder) => inFolder(target, folder)))
            .map((target) => `${f.path} -> ${target}`),
        );
      assert.deepEqual(offending, []);
    });
  }

  test('admin-api/ imports nothing from api/: what both JSON APIs use is json-api/, below both', () => {
    const offending = files
      .filter((f) => inFolder(f.path, 'admin-api'))
      .flatMap((f) => f.imports.filter((t) => inFolder(t, 'api')).map((t) => `${f.path} -> ${t}`));
    assert.deepEqual(offending, []);
  });

  test('oauth/ and context.ts do not import each other: oauth/ declares its needs in services.ts', () => {
    const offending = files
      .filter((f) => inFolder(f.path, 'oauth'))
      .flatMap((f) => f.imports.filter((t) => t === 'context.ts').map((t) => `${f.path} -> ${t}`));
    assert.deepEqual(offending, []);
  });
});
