import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

/** The repository's root, where README.md and docs/ are. */
const ROOT = new URL('../../../', import.meta.url);

/** README.md and every page of docs/, as paths from the repository's root. */
export function documentationPages(): string[] {
  return [
    'README.md',
    ...readdirSync(new URL('docs/', ROOT))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

/** The whole text of `file` (a path from the repository's root). */
export function pageOf(file: string): string {
  return readFileSync(new URL(file, ROOT), 'utf8');
}

/** The text of `file`'s section `## heading`, up to the next `## `. */
export function sectionOf(file: string, heading: string): string {
  const text = pageOf(file);
  const start = text.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `${file} has a ${heading} section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** The ```sh blocks of `text`, each as written. */
export function shellBlocks(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((block) => block[1] ?? '');
}

/** Each call of `gatehouse` in a shell block: the words after `gatehouse`, up to a pipe, a redirection or a comment. */
export function gatehouseCallsIn(block: string): string[][] {
  const calls: string[][] = [];
  for (const line of block.replace(/\\\n/g, ' ').split('\n')) {
    const tokens: readonly string[] = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
    const at = tokens.indexOf('gatehouse');
    if (at === -1 || tokens[at - 1] === 'curl') continue;
    const rest = tokens.slice(at + 1);
    const stop = rest.findIndex((t) => ['|', ';', '&&', '>', '#'].includes(t) || t.startsWith('#'));
    // `cd gatehouse && …`: a folder of that name, not a call.
    if (stop !== 0 && rest.length > 0) calls.push(stop === -1 ? rest : rest.slice(0, stop));
  }
  return calls;
}

/** Each call of `gatehouse` in the ```sh blocks of `text`. */
export function gatehouseCalls(text: string): string[][] {
  return shellBlocks(text).flatMap(gatehouseCallsIn);
}
