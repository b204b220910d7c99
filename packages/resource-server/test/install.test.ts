import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SHIPPED_OPENAPI, startGatehouse, type Gatehouse } from './_gatehouse.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/install/', import.meta.url));
const PACKAGES = ['contract', 'client', 'resource-server', 'server'] as const;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packages, packed with npm pack and installed into an empty project outside the repository', () => {
  let gatehouse: Gatehouse;
  let project: string;

  before(async () => {
    for (const name of PACKAGES) {
      const dist = join(ROOT, 'packages', name, 'dist', 'index.js');
      assert.ok(existsSync(dist), `${dist} is missing: run npm run build first (npm test does)`);
    }
    gatehouse = await startGatehouse({ api: SHIPPED_OPENAPI });
    project = mkdtempSync(join(tmpdir(), 'gatehouse-install-'));
    const packs = join(project, 'packs');
    mkdirSync(packs);
    for (const name of PACKAGES)
      await run(NPM, ['pack', '--silent', '--pack-destination', packs, '-w', `packages/${name}`], { cwd: ROOT });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'probe', private: true, type: 'module' }));
    for (const file of ['probe.mjs', 'probe.ts', 'tsconfig.json'])
      copyFileSync(join(FIXTURES, file), join(project, file));
    const tarballs = readdirSync(packs).map((file) => join(packs, file));
    assert.equal(tarballs.length, PACKAGES.length);
    // --ignore-scripts: better-sqlite3 would compile from source for minutes; its JavaScript loads
    // without the binary, which is needed only to open a SQLite store.
    await run(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], {
      cwd: project,
      timeout: 180_000,
    });
  });
  after(async () => {
    await gatehouse?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs every package from its tarball and the npm registry alone', () => {
    for (const name of PACKAGES) assert.ok(existsSync(join(project, 'node_modules', '@gatehouse', name, 'dist')));
    assert.ok(!existsSync(join(project, 'node_modules', '@gatehouse', 'contract', 'node_modules')));
  });

  it('resolves every entry point and makes real calls against a listening Gatehouse, with no source condition', async () => {
    const client = await gatehouse.addClient('probe', ['contacts:read']);
    const { stdout } = await run(process.execPath, ['probe.mjs'], {
      cwd: project,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        ISSUER: gatehouse.issuer,
        CLIENT_ID: client.id,
        CLIENT_SECRET: client.secret,
      },
    });
    assert.deepEqual(JSON.parse(stdout), {
      contract: JSON.parse(stdout).contract,
      problem: '/problems/not-found',
      client: gatehouse.issuer,
      clientNode: 'function',
      resourceServer: 'probe',
      adapters: ['function', 'function'],
      server: ['function', 'function'],
    });
    assert.equal(typeof JSON.parse(stdout).contract, 'string');
  });

  it("resolves every entry point's type declarations from the tarballs", async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch(
      (error: Error & { stdout?: string }) => ({ stdout: `tsc failed:\n${error.stdout ?? error.message}` }),
    );
    assert.equal(result.stdout, '');
  });
});
