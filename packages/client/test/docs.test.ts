import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CLIENT_ERROR_CODES } from '@gatehouse/client';
import { EXIT_CODES } from '@gatehouse/client/node';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const section = README.slice(
  README.indexOf('## Client SDK'),
  README.indexOf('\n## ', README.indexOf('## Client SDK') + 1),
);

describe('the README documents the client', () => {
  test('every error code of the SDK is in the "Errors by class" table', () => {
    assert.ok(section.length > 0, 'the README has a Client SDK section');
    for (const code of CLIENT_ERROR_CODES) assert.match(section, new RegExp(`\\| \`${code}\` \\|`), code);
  });

  test('every exit code of gatehouse-login is in its table, and nothing else is', () => {
    const documented = [...section.matchAll(/^\| (\d) \|/gm)].map((m) => Number(m[1]));
    assert.deepEqual(documented, Object.values(EXIT_CODES));
  });
});
