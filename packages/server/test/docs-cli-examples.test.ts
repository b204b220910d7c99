/**
 * The quick start's shell examples (README.md's "Quick start" and docs/getting-started.md) call
 * `gatehouse` only with commands and options that the command's `--help` declares, so a renamed
 * option cannot leave a newcomer's first command broken.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { COMMAND_DECLARATIONS } from '../src/cli/run.js';
import { runCliCaptured } from './_cli.js';

const ROOT = new URL('../../../', import.meta.url);

function sectionOf(file: string, heading = 'Quick start'): string {
  const text = readFileSync(new URL(file, ROOT), 'utf8');
  const start = text.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `${file} has a ${heading} section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** Each call of `gatehouse` in the section's ```sh blocks: the words after `gatehouse`. */
function gatehouseCalls(section: string): string[][] {
  const calls: string[][] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = (block[1] ?? '').replace(/\\\n/g, ' ').split('\n');
    for (const line of lines) {
      const tokens: readonly string[] = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
      const at = tokens.indexOf('gatehouse');
      if (at === -1 || tokens[at - 1] === 'curl') continue;
      const rest = tokens.slice(at + 1);
      const stop = rest.findIndex((t) => ['|', ';', '&&', '>', '#'].includes(t) || t.startsWith('#'));
      calls.push(stop === -1 ? rest : rest.slice(0, stop));
    }
  }
  return calls;
}

/** The declared command a call names: the longest declaration name its leading words spell. */
function commandOf(words: readonly string[]): string | undefined {
  const firstOption = words.findIndex((w) => w.startsWith('-'));
  const leading = (firstOption === -1 ? words : words.slice(0, firstOption)).join(' ');
  return COMMAND_DECLARATIONS.map((d) => d.name)
    .filter((name) => leading === name || leading.startsWith(`${name} `))
    .sort((a, b) => b.length - a.length)[0];
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
      for (const words of calls) {
        const command = commandOf(words);
        assert.ok(command !== undefined, `gatehouse ${words.join(' ')}: no such command`);
        const help = await runCliCaptured([...command.split(' '), '--help'], {});
        assert.equal(help.code, 0);
        assert.ok(help.out.startsWith(`Usage: gatehouse ${command} `), `the --help of ${command}`);
        for (const option of words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? w))
          assert.match(help.out, new RegExp(`\\n  ${option} `), `gatehouse ${command} --help declares ${option}`);
      }
    });
  }
});
