import { resolve } from 'node:path';

/**
 * The file a `sqlite:` URL names, absolute (a relative path is relative to the current folder), or
 * `:memory:`. A query string is refused: it is not a file name, and SQLite options are not read
 * from it, so `sqlite:x.db?mode=ro` would otherwise open (and create) a file named `x.db?mode=ro`.
 */
export function sqliteFilename(databaseUrl: string): string {
  const rest = databaseUrl.slice('sqlite:'.length);
  if (rest.includes('?'))
    throw new Error(
      `DATABASE_URL ${JSON.stringify(databaseUrl)}: a sqlite: URL is a file path and takes no query string`,
    );
  if (rest === ':memory:') return rest;
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path === '') throw new Error('DATABASE_URL "sqlite:" names no file');
  return resolve(path);
}
