/**
 * What the CLI answers to the first mistakes a newcomer makes: a typo, a port another program
 * holds. Each answer says what is wrong and what to do, in one line, and exits non-zero.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliCaptured, runNodeScript } from './_cli.js';
import { GATEHOUSE_BIN } from './_processes.js';

describe('a mistyped command', () => {
  const cases: [argv: string[], message: string, help: string][] = [
    [['serv'], "unknown command 'serv'; did you mean 'serve'?", 'gatehouse --help'],
    [['clients', 'ad'], "unknown clients command 'ad'; did you mean 'add'?", 'gatehouse clients --help'],
    [
      ['clients', 'add', '--id', 'x', '--name', 'X', '--scop', 'a'],
      "unknown option '--scop' for clients add; did you mean '--scope'?",
      'gatehouse clients add --help',
    ],
  ];

  it('piped: one JSON line with the nearest command or option and the command that prints the help; exit 2', async () => {
    for (const [argv, message, help] of cases) {
      const run = await runCliCaptured(argv, {});
      assert.equal(run.code, 2);
      assert.deepEqual(JSON.parse(run.err), { error: 'usage', message, help });
    }
  });

  it('on a terminal: the suggestion and where the help is, two lines, not the help itself', async () => {
    for (const [argv, message, help] of cases) {
      const run = await runCliCaptured(argv, {}, { errIsTerminal: true });
      assert.equal(run.code, 2);
      assert.deepEqual(run.err.split('\n'), [`gatehouse: usage: ${message}`, `Run '${help}' for the usage.`]);
    }
  });
});

describe('serve on a port another program holds', () => {
  let dir: string;
  let holder: Server;
  let port: number;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-busy-port-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => holder.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const workers of [[], ['--workers', '2']])
    it(`serve${workers.map((w) => ` ${w}`).join('')}: exits 1 at once naming the port and PORT, no stack, no database made`, async () => {
      const database = join(dir, `busy${workers.length}.db`);
      const run = await runNodeScript(GATEHOUSE_BIN, ['serve', ...workers], {
        env: { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: `sqlite:${database}` },
      });
      assert.equal(run.code, 1, run.err);
      const { error, message } = JSON.parse(run.err) as { error: string; message: string };
      assert.equal(error, 'failed');
      assert.match(
        message,
        new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use .*PORT=${port + 1} npm start`),
      );
      assert.doesNotMatch(run.err, /\n\s+at /, 'no stack');
      assert.equal(existsSync(database), false);
    });
});
