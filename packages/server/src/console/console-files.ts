import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { escapeHtml } from '../primitives/html-escape.js';
import { CONSOLE_CLIENT_ID, CONSOLE_PATH, CONSOLE_SCOPE, consoleResource } from './console-client.js';

/** The console's built files, read once at start: its page, and its assets by name. */
export interface ConsoleFiles {
  /** index.html with the server's base path and the console's configuration written in. */
  readonly page: string;
  readonly assets: ReadonlyMap<string, { readonly type: string; readonly body: Buffer }>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Where `npm run build` puts the console (packages/console/dist); undefined when it cannot be found. */
export function consoleDistDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@gatehouse/console/package.json');
    const dir = join(dirname(manifest), 'dist');
    return existsSync(join(dir, 'index.html')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a console build. Its index.html names its assets relatively (`./assets/…`) and the server's
 * stylesheet as `../assets/…`; both become absolute under the server's base path, so that every
 * console route (`/console/users/alice`) loads the same files. The configuration goes in a `<meta>`
 * (no inline script: the CSP allows none).
 */
export function readConsoleFiles(dir: string, issuer: string): ConsoleFiles {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  const config = JSON.stringify({
    issuer,
    client_id: CONSOLE_CLIENT_ID,
    scope: CONSOLE_SCOPE.join(' '),
    resource: consoleResource(issuer),
  });
  const page = readFileSync(join(dir, 'index.html'), 'utf8')
    .replaceAll('"./assets/', `"${base}${CONSOLE_PATH}/assets/`)
    .replaceAll('"../assets/', `"${base}/assets/`)
    .replace(
      '<meta charset="utf-8" />',
      `<meta charset="utf-8" />\n    <meta name="gatehouse-console" content="${escapeHtml(config)}" />`,
    );
  const assets = new Map<string, { type: string; body: Buffer }>();
  const assetDir = join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[extname(name)];
    if (type !== undefined) assets.set(name, { type, body: readFileSync(join(assetDir, name)) });
  }
  return { page, assets };
}
