/**
 * The server's source files and their imports of one another, read from the text of src/ (relative
 * specifiers only), for the tests that hold the layers (layers.test.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../src/', import.meta.url));

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

export const withoutComments = (code: string): string =>
  code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

const IMPORT = /\b(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;
/**
 * `import type` and `export type` statements: erased when compiled (`verbatimModuleSyntax`), so they
 * run nothing. A statement of only inline `type` names is written `import type` (the lint's
 * consistent-type-imports), so these are all the imports that do not run.
 */
const TYPE_ONLY = /\b(?:import|export)\s+type\s[^'";]*?from\s*['"]\.[^'"]+['"]/g;

function targetsIn(file: string, code: string): string[] {
  return [...code.matchAll(IMPORT)].map((m) =>
    relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))),
  );
}

/** The files of src/ a file imports, as paths relative to src/. */
export function localImportsOf(file: string): string[] {
  return targetsIn(file, withoutComments(readFileSync(file, 'utf8')));
}

/** The files of src/ a file imports in statements that run (not `import type`), relative to src/. */
export function valueImportsOf(file: string): string[] {
  return targetsIn(file, withoutComments(readFileSync(file, 'utf8')).replace(TYPE_ONLY, ''));
}

/**
 * The import cycles of a graph: every strongly connected component of more than one node, or of one
 * node that imports itself, each sorted (Tarjan's algorithm, linear in the edges).
 */
export function cyclesOf(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || [...(graph.get(node) ?? [])].includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}
