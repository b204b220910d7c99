/**
 * Every published package says what it is and where it comes from: a README, a LICENSE, a license
 * field and a `repository` (npm's `repository.directory` for a package in a monorepo) that agrees with
 * the root's; and `npm publish` is refused while that repository is the placeholder this repository
 * ships with (a `.invalid` host, RFC 2606 §2), so no tarball reaches a registry pointing nowhere.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runInGroup } from './_processes.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLISHED = ['contract', 'server', 'client', 'resource-server'];
const GUARD = join(ROOT, 'scripts', 'check-publishable.mjs');

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly scripts?: Record<string, string>;
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

describe('package metadata', () => {
  const root = manifestOf(ROOT);

  for (const name of PUBLISHED) {
    const dir = join(ROOT, 'packages', name);
    it(`@gatehouse/${name} has a README, a LICENSE, a license and the root's repository with its directory`, () => {
      const manifest = manifestOf(dir);
      assert.equal(manifest.private, undefined);
      assert.ok(existsSync(join(dir, 'README.md')));
      assert.ok(existsSync(join(dir, 'LICENSE')));
      assert.equal(manifest.license, root.license);
      assert.deepEqual(manifest.repository, { type: 'git', url: root.repository?.url, directory: `packages/${name}` });
      assert.equal(manifest.scripts?.prepublishOnly, 'node ../../scripts/check-publishable.mjs');
    });
  }

  it('npm publish is refused while the repository is the .invalid placeholder (RFC 2606 §2), and allowed once it is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-publishable-'));
    try {
      cpSync(join(ROOT, 'packages', 'contract', 'package.json'), join(dir, 'package.json'));
      const placeholder = await runInGroup(process.execPath, [GUARD, dir]);
      assert.equal(placeholder.code, 1);
      assert.match(placeholder.err, /placeholder/);

      const real = {
        ...manifestOf(dir),
        repository: { type: 'git', url: 'git+https://example.com/acme/gatehouse.git' },
      };
      writeFileSync(join(dir, 'package.json'), JSON.stringify(real));
      assert.equal((await runInGroup(process.execPath, [GUARD, dir])).code, 0);

      const none = { ...real, repository: undefined };
      writeFileSync(join(dir, 'package.json'), JSON.stringify(none));
      const missing = await runInGroup(process.execPath, [GUARD, dir]);
      assert.equal(missing.code, 1);
      assert.match(missing.err, /no repository URL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
