import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CLIENT_ERROR_CODES } from '@gatehouse/client';
import { EXIT_CODES } from '@gatehouse/client/node';

// docs/client-sdk.md holds the "Client SDK" section, once the README's.
const PAGE = readFileSync(new URL('../../../docs/client-sdk.md', import.meta.url), 'utf8');
const start = PAGE.indexOf('## Client SDK');
const end = PAGE.indexOf('\n## ', start + 1);
const section = PAGE.slice(start, end === -1 ? undefined : end);

describe('docs/client-sdk.md documents the client', () => {
  test('every error code of the SDK is in the "Errors by class" table', () => {
    assert.ok(section.length > 0, 'docs/client-sdk.md has a Client SDK section');
    for (const code of CLIENT_ERROR_CODES) assert.match(section, new RegExp(`\\| \`${code}\` \\|`), code);
  });

  test('every exit code of gatehouse-login is in its table, and nothing else is', () => {
    const documented = [...section.matchAll(/^\| (\d) \|/gm)].map((m) => Number(m[1]));
    assert.deepEqual(documented, Object.values(EXIT_CODES));
  });
});
