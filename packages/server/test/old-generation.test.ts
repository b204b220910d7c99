import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const MODULE = fileURLToPath(new URL('../src/cli/old-generation.ts', import.meta.url));

/**
 * A child process that holds ~40 MB live and makes garbage that lives long enough to be promoted
 * (a ring of objects overwritten over many scavenges), as requests waiting on a pool or spans
 * waiting for their batch do, and prints the largest size its old space reached, in MiB.
 */
function mostOldSpace(setup: string, nodeOptions: string[] = []): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { limitOldGenerationGrowth } from ${JSON.stringify(MODULE)};
    ${setup}
    const live = Array.from({ length: 200000 }, (_, i) => ({ i, text: 'live' + i }));
    const ring = new Array(130000);
    let most = 0;
    for (let turn = 0; turn < 250; turn++) {
      for (let i = 0; i < 13000; i++) ring[(turn * 13000 + i) % ring.length] = { i, text: 'x' + i, more: [i] };
      most = Math.max(most, getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size);
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(String(live.length > 0 ? most / 1048576 : 0));
  `;
  const run = spawnSync(process.execPath, [...nodeOptions, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout);
}

describe('the old generation of gatehouse serve', () => {
  it("grows to (1 + percent / 100) × its live size, where V8's largest factor (4) lets it grow to about twice that", () => {
    const limited = mostOldSpace('if (!limitOldGenerationGrowth(50, [])) process.exit(3);');
    const operators = mostOldSpace('if (limitOldGenerationGrowth(50, process.execArgv)) process.exit(3);', [
      '--heap-growing-percent=300',
    ]);
    assert.ok(limited < 110, `limited: ${limited} MiB`);
    assert.ok(operators > 120, `an operator's --heap-growing-percent=300: ${operators} MiB`);
  });
});
