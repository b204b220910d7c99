/**
 * What the CLI answers to the first mistakes a newcomer makes: a typo. Each answer says what is wrong and what to do, in one line, and exits non-zero.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCliCaptured } from './_cli.js';

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
