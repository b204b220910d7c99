import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const MODULE = fileURLToPath(new URL('../src/cli/young-generation.ts', import.meta.url));

/**
 * A child process that allocates as a busy server does (short-lived objects, some kept for a while,
 * many event-loop turns) and prints its new space's size in MiB at the end (both semi-spaces).
 */
function newSpaceAfterChurn(setup: string, nodeOptions: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { capYoungGeneration } from ${JSON.stringify(MODULE)};
    ${setup}
    let kept = [];
    for (let turn = 0; turn < 400; turn++) {
      for (let i = 0; i < 20000; i++) { kept.push({ i, text: 'x' + i }); if (kept.length > 100000) kept = []; }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    process.stdout.write(String(newSpace.space_size / 1048576));
  `;
  const run = spawnSync(process.execPath, [...nodeOptions, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout);
}

describe('the young generation of gatehouse serve', () => {
  it('stays at the cap per semi-space under allocation, where V8 alone grows it further', () => {
    assert.ok(newSpaceAfterChurn('') > 8, 'without the cap the new space grows past 2 × 4 MiB');
    assert.ok(newSpaceAfterChurn('capYoungGeneration(4, []);') <= 8);
  });

  it("leaves the young generation to an operator's own --max-semi-space-size", () => {
    const newSpace = newSpaceAfterChurn('capYoungGeneration(1, process.execArgv);', ['--max-semi-space-size=4']);
    assert.ok(newSpace > 2 && newSpace <= 8, String(newSpace));
  });
});
