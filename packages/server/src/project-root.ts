import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Files that mark a project's root folder. npm keeps one package-lock.json for all the workspaces of
 * a repository, at its root, so a command run from `packages/server` finds the same root as one run
 * from the repository itself.
 */
const PROJECT_ROOT_MARKERS = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml'];

/**
 * The folder the defaults of DATABASE_URL and OPENAPI_PATH are in: the nearest folder at or above
 * `cwd` holding a lockfile, or `cwd` itself when there is none. So every folder of a project means
 * the same database, wherever in it a command runs.
 */
export function projectRoot(cwd: string = process.cwd()): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (PROJECT_ROOT_MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
