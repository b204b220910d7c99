/**
 * The quick start's shell examples (README.md's "Quick start" and docs/getting-started.md) call
 * `gatehouse` only with commands and options that the command's `--help` declares, so a renamed
 * option cannot leave a newcomer's first command broken.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMAND_DECLARATIONS } from '../src/cli/run.js';
import { runCliCaptured } from './_cli.js';
import { documentationPages, gatehouseCalls, pageOf, sectionOf } from './_docs.js';

/** The declared command a call names: the longest declaration name its leading words spell. */
function commandOf(words: readonly string[]): string | undefined {
  const firstOption = words.findIndex((w) => w.startsWith('-'));
  const leading = (firstOption === -1 ? words : words.slice(0, firstOption)).join(' ');
  return COMMAND_DECLARATIONS.map((d) => d.name)
    .filter((name) => leading === name || leading.startsWith(`${name} `))
    .sort((a, b) => b.length - a.length)[0];
}

/** Each call's command is declared, and each of its options is in that command's --help. */
async function assertDeclared(calls: readonly string[][]): Promise<void> {
  for (const words of calls) {
    if (words.length === 1 && ['--version', '--help'].includes(words[0] as string)) continue;
    const command = commandOf(words);
    assert.ok(command !== undefined, `gatehouse ${words.join(' ')}: no such command`);
    const help = await runCliCaptured([...command.split(' '), '--help'], {});
    assert.equal(help.code, 0);
    assert.ok(/^[ \n]/.test(help.out.slice(`Usage: gatehouse ${command}`.length)), `the --help of ${command}`);
    assert.ok(help.out.startsWith(`Usage: gatehouse ${command}`), `the --help of ${command}`);
    for (const option of words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? w))
      assert.match(help.out, new RegExp(`\\n  ${option} `), `gatehouse ${command} --help declares ${option}`);
  }
}

describe("the documented gatehouse commands are the CLI's", () => {
  const sections: [string, string][] = [
    ['README.md', 'Quick start'],
    ['docs/getting-started.md', 'Quick start'],
    ['README.md', 'Service-to-service delegation'],
    ['docs/authorization.md', 'Service-to-service delegation (token exchange)'],
    ['docs/operating.md', 'Mail'],
  ];
  for (const [file, heading] of sections) {
    it(`${file} "${heading}": every gatehouse command and option is in that command's --help`, async () => {
      const calls = gatehouseCalls(sectionOf(file, heading));
      assert.ok(calls.length > 0, `${file}'s ${heading} calls gatehouse`);
      await assertDeclared(calls);
    });
  }

  it("every other page's shell blocks: every gatehouse command and option is in that command's --help", async () => {
    const pages = documentationPages().filter((file) => gatehouseCalls(pageOf(file)).length > 0);
    assert.ok(pages.includes('docs/operating.md') && pages.includes('docs/client-sdk.md'), pages.join(' '));
    for (const file of pages) await assertDeclared(gatehouseCalls(pageOf(file)));
  });
});
