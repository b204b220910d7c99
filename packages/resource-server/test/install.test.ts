import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createPostgresSchema } from '../../server/test/_dialects.js';
import { runInGroup, spawnGroup, type GroupOptions } from '../../server/test/_processes.js';
import { SHIPPED_OPENAPI, startGatehouse, type Gatehouse } from './_gatehouse.js';

/**
 * A command run to its end in a process group of its own (server/test/_process-groups.ts): its stdout, or
 * an Error carrying its output when it fails. npm and tsc get three minutes on a busy machine.
 */
async function run(
  command: string,
  args: string[],
  options: GroupOptions & { timeoutMs?: number } = {},
): Promise<{ stdout: string }> {
  const ran = await runInGroup(command, args, { timeoutMs: 180_000, ...options });
  if (ran.code !== 0)
    throw Object.assign(new Error(`${command} ${args.join(' ')} failed (${ran.code}): ${ran.err}`), {
      stdout: ran.out,
    });
  return { stdout: ran.out };
}
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/install/', import.meta.url));
const PACKAGES = ['contract', 'client', 'resource-server', 'server', 'console'] as const;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('the packages, packed with npm pack and installed into an empty project outside the repository', () => {
  let gatehouse: Gatehouse;
  let project: string;
  let tarballs: string[];

  before(async () => {
    for (const name of PACKAGES) {
      const dist = join(ROOT, 'packages', name, 'dist', name === 'console' ? 'index.html' : 'index.js');
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
    tarballs = readdirSync(packs).map((file) => join(packs, file));
    assert.equal(tarballs.length, PACKAGES.length);
    // --ignore-scripts: better-sqlite3 would compile from source for minutes; its JavaScript loads
    // without the binary, which is needed only to open a SQLite store.
    await run(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: project });
  });
  after(async () => {
    await gatehouse?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs every package from its tarball and the npm registry alone', () => {
    for (const name of PACKAGES) assert.ok(existsSync(join(project, 'node_modules', '@gatehouse', name, 'dist')));
    assert.ok(!existsSync(join(project, 'node_modules', '@gatehouse', 'contract', 'node_modules')));
  });

  it('no tarball carries a TypeScript build-info file (.tsbuildinfo): it is a build cache, not a part of the package', async () => {
    for (const tarball of tarballs) {
      const { stdout } = await run('tar', ['-tzf', tarball]);
      assert.deepEqual(
        stdout.split('\n').filter((file) => file.endsWith('.tsbuildinfo')),
        [],
        tarball,
      );
    }
  });

  it("the server's tarball carries the REST API's openapi.yaml, and its installed `gatehouse serve` serves it", async () => {
    const server = join(project, 'node_modules', '@gatehouse', 'server');
    assert.ok(existsSync(join(server, 'openapi.yaml')));
    assert.ok(!existsSync(join(project, 'openapi.yaml')), 'the project has no document of its own');
    // PostgreSQL: the install skipped better-sqlite3's build (see before).
    const schema = await createPostgresSchema();
    const served = spawnGroup(process.execPath, [join(server, 'bin', 'gatehouse.js'), 'serve'], {
      cwd: project,
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', DATABASE_URL: schema.url, LOG_LEVEL: 'silent' },
    });
    try {
      const [, url] = await served.waitForOutput(
        /listening on (\S+),/,
        'the installed gatehouse serve listens',
        60_000,
      );
      const response = await fetch(`${url}/v2/openapi.json`);
      assert.equal(response.status, 200);
      const document = (await response.json()) as { paths: Record<string, unknown> };
      assert.ok('/contacts' in document.paths);
      const consolePage = await fetch(`${url}/console`);
      assert.equal(consolePage.status, 200, 'the console comes with the server');
      assert.match(await consolePage.text(), /<meta name="gatehouse-console"/);
    } finally {
      await served.stop();
      await schema.drop();
    }
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
