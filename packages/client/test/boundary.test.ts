/**
 * The client's boundaries: it imports nothing from the server, and its core (everything but
 * src/node and src/cli) imports nothing Node-only, so it runs in browsers.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import type * as Esbuild from 'esbuild';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const NODE_ONLY = [join(SRC, 'node'), join(SRC, 'cli')];
const BUILTINS = new Set(builtinModules);

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

/** Every module specifier of a file: static imports and re-exports, side-effect imports, dynamic import(). */
function specifiersOf(file: string): string[] {
  const code = withoutComments(readFileSync(file, 'utf8'));
  const found = [...code.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  return [...new Set(found)];
}

const isCore = (file: string): boolean => !NODE_ONLY.some((dir) => file.startsWith(`${dir}/`));
const coreFiles = sourceFiles(SRC).filter(isCore);

describe('client boundaries', () => {
  test('the walk sees the core files', () => {
    for (const name of ['index.ts', 'token-manager.ts', 'api-client.ts', 'errors.ts'])
      assert.ok(coreFiles.includes(join(SRC, name)), name);
  });

  test('no file of the client imports the server', () => {
    for (const file of sourceFiles(SRC)) {
      for (const specifier of specifiersOf(file)) {
        assert.ok(!specifier.startsWith('@gatehouse/server'), `${relative(SRC, file)} imports ${specifier}`);
      }
    }
    const manifest = JSON.parse(readFileSync(join(SRC, '..', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    assert.deepEqual(
      Object.keys(manifest.dependencies),
      ['@gatehouse/contract'],
      'the client depends only on the contract',
    );
  });

  test('the core imports no Node builtin and nothing from src/node or src/cli', () => {
    for (const file of coreFiles) {
      for (const specifier of specifiersOf(file)) {
        const where = `${relative(SRC, file)} imports ${specifier}`;
        assert.ok(!specifier.startsWith('node:') && !BUILTINS.has(specifier.split('/')[0] ?? ''), where);
        if (specifier.startsWith('.')) assert.ok(isCore(resolve(dirname(file), specifier)), where);
        else
          assert.ok(
            specifier.startsWith('@gatehouse/contract'),
            `${where}: the core's only package import is the contract`,
          );
      }
    }
  });

  test('the core uses no Node-only global (process, Buffer, require, __dirname)', () => {
    for (const file of coreFiles) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      assert.doesNotMatch(
        code,
        /\b(process\.|Buffer\b|require\(|__dirname|__filename|setImmediate)/,
        relative(SRC, file),
      );
    }
  });

  test('src/index.ts bundles for the browser platform (esbuild)', async (t) => {
    let esbuild: typeof Esbuild;
    try {
      esbuild = await import('esbuild');
    } catch {
      t.skip('esbuild (a dependency of tsx) is not installed');
      return;
    }
    const result = await esbuild.build({
      entryPoints: [join(SRC, 'index.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      conditions: ['@gatehouse/source'],
      logLevel: 'silent',
      target: 'es2022',
    });
    assert.deepEqual(result.errors, []);
    const bundle = result.outputFiles[0]?.text ?? '';
    assert.match(bundle, /TokenManager = class|class TokenManager/, 'the bundle holds the token manager');
    assert.doesNotMatch(bundle, /from ["']node:|require\(["']node:/);
  });
});
